import { describe, expect, it } from 'vitest';
import { SpineError } from '../../core/spine-error.js';
import { describeUrl } from './describe-url.js';
import { explainHttpFailure, hintFor } from './explain-failure.js';

const refused = (url: string) =>
  new SpineError({
    code: 'LLM_CONNECTION',
    message: 'refused',
    details: { url, networkCode: 'ECONNREFUSED' },
  });

describe('hintFor', () => {
  it.each([
    ['http://127.0.0.1:11434/v1', "Ollama's default port: is `ollama serve` running?"],
    ['http://localhost:8080/v1', "llama-server's default port"],
    ['http://127.0.0.1:1234/v1', "LM Studio's default port"],
    ['http://127.0.0.1:8000/v1', "vLLM's default port"],
    ['http://127.0.0.1:9999/v1', 'nothing listens on 127.0.0.1:9999: is the runner started'],
  ])('a refused connection to %s names the runner expected there', (url, expected) => {
    expect(hintFor(refused(url), url)).toContain(expected);
  });

  it('an unknown host is a base URL to check', () => {
    const error = new SpineError({
      code: 'LLM_CONNECTION',
      message: 'x',
      details: { networkCode: 'ENOTFOUND' },
    });
    expect(hintFor(error, 'http://no-such-host.invalid/v1')).toBe(
      'the host no-such-host.invalid does not resolve: check --base-url',
    );
  });

  it.each([
    [
      'http://127.0.0.1:11434/v1/responses',
      'this runner has no /responses route: use --api-type chat_completions',
    ],
    ['http://127.0.0.1:8080/v1/chat/completions', 'check --base-url: nothing answers at this path'],
  ])('a 404 from %s says what to change', (url, expected) => {
    const error = new SpineError({
      code: 'LLM_HTTP_ERROR',
      message: 'File Not Found',
      details: { status: 404 },
    });
    expect(hintFor(error, url)).toContain(expected);
  });

  it('a chat template that wants alternating roles says how to fix the conversation', () => {
    const error = new SpineError({
      code: 'LLM_HTTP_ERROR',
      message: 'Error: Jinja Exception: Conversation roles must alternate user/assistant/user/assistant/...',
      details: { status: 400 },
    });
    expect(hintFor(error, 'http://127.0.0.1:8080/v1/chat/completions')).toContain(
      'merge consecutive messages',
    );
  });

  it('says nothing it does not know', () => {
    const error = new SpineError({ code: 'LLM_SERVER_ERROR', message: 'boom', details: { status: 500 } });
    expect(hintFor(error, 'http://127.0.0.1:8080/v1/chat/completions')).toBeUndefined();
  });
});

describe('explainHttpFailure', () => {
  it('puts status, method and URL first and the hint last, and keeps code and retryability', () => {
    const error = new SpineError({
      code: 'LLM_AUTH_FAILED',
      message: 'bad key',
      details: { status: 401 },
    });
    const explained = explainHttpFailure(error, 'http://127.0.0.1:8080/v1/chat/completions');
    expect(explained.message).toBe(
      'HTTP 401 from POST http://127.0.0.1:8080/v1/chat/completions: bad key (check the API key: --api-key, the LLM_API_KEY variable, or api_key_env in spine.yaml)',
    );
    expect(explained).toMatchObject({ code: 'LLM_AUTH_FAILED', retryable: false });
    expect(explained.details).toMatchObject({
      status: 401,
      url: 'http://127.0.0.1:8080/v1/chat/completions',
    });
  });
});

describe('describeUrl', () => {
  it('drops credentials from the authority and from key-like query parameters', () => {
    expect(describeUrl('http://user:s3cret@127.0.0.1:8080/v1/chat/completions?api-key=abc&x=1')).toBe(
      'http://127.0.0.1:8080/v1/chat/completions?api-key=REDACTED&x=1',
    );
    expect(describeUrl('not a url with user:pw@host')).toBe('not a url with user:pw@host');
  });
});
