import { describe, expect, it } from 'vitest';
import { classifyErrorBody } from './classify-error-body.js';
import { classifyHttpError } from './classify-http-error.js';

const openAiError = (message: string, code: string | null = null) =>
  JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } });

describe('classifyHttpError: status', () => {
  it.each([
    [401, 'LLM_AUTH_FAILED', false],
    [403, 'LLM_AUTH_FAILED', false],
    [429, 'LLM_RATE_LIMITED', true],
    [500, 'LLM_SERVER_ERROR', true],
    [503, 'LLM_SERVER_ERROR', true],
    [408, 'LLM_HTTP_ERROR', true],
    [409, 'LLM_HTTP_ERROR', true],
    [400, 'LLM_HTTP_ERROR', false],
    [404, 'LLM_HTTP_ERROR', false],
    [422, 'LLM_HTTP_ERROR', false],
  ])('%i → %s (retryable %s)', (status, code, retryable) => {
    const error = classifyHttpError(status, openAiError('nope'));
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(retryable);
    expect(error.message).toBe('nope');
    expect(error.details.status).toBe(status);
  });
});

describe('classifyHttpError: message shapes (§53)', () => {
  it('reads {error:{message,type,code}} with a string or numeric code', () => {
    const error = classifyHttpError(400, openAiError('bad param', 'invalid_value'));
    expect(error.details).toMatchObject({ type: 'invalid_request_error', providerCode: 'invalid_value' });
    expect(
      classifyHttpError(400, '{"error":{"message":"m","type":"BadRequestError","param":null,"code":400}}')
        .details,
    ).toMatchObject({
      providerCode: 400,
    });
  });

  it('reads {error:"…"} (Ollama native)', () => {
    expect(classifyHttpError(404, '{"error":"model \'x\' not found"}').message).toBe("model 'x' not found");
  });

  it('reads a flat {object:"error",message,type,code} (old vLLM) and llama.cpp\'s unwrapped 404', () => {
    const vllm = classifyHttpError(
      400,
      '{"object":"error","message":"bad","type":"BadRequestError","param":null,"code":400}',
    );
    expect(vllm.message).toBe('bad');
    expect(vllm.details.type).toBe('BadRequestError');
    const llama = classifyHttpError(404, '{"code":404,"message":"File Not Found","type":"not_found_error"}');
    expect(llama.message).toBe('File Not Found');
    expect(llama.details).toMatchObject({ type: 'not_found_error', providerCode: 404 });
  });

  it('stringifies an object message (Mistral) and a FastAPI detail', () => {
    const mistral = classifyHttpError(
      422,
      '{"object":"error","message":{"detail":[{"type":"extra_forbidden"}]}}',
    );
    expect(mistral.message).toBe('{"detail":[{"type":"extra_forbidden"}]}');
    expect(classifyHttpError(422, '{"detail":"Not allowed"}').message).toBe('Not allowed');
  });

  it('keeps a text body as the message, trimmed and capped, and the body in details', () => {
    expect(classifyHttpError(502, '  <html>Bad Gateway</html>\n').message).toBe(
      'an HTML page instead of an API answer',
    );
    const page = classifyHttpError(404, '<!DOCTYPE html><html><head><title>Not Found</title></head></html>');
    expect(page.message).toBe('an HTML page ("Not Found") instead of an API answer');
    expect(page.details.body).toContain('<title>Not Found</title>');
    const long = classifyHttpError(500, 'x'.repeat(10_000));
    expect(long.message.length).toBeLessThanOrEqual(1001);
    expect(String(long.details.body).length).toBeLessThanOrEqual(4001);
    expect(classifyHttpError(404, '(404): No models loaded').message).toBe('(404): No models loaded');
  });

  it('says which status came back when the body is empty', () => {
    const error = classifyHttpError(503, '');
    expect(error.message).toBe('the runner answered HTTP 503');
    expect(error.code).toBe('LLM_SERVER_ERROR');
  });
});

describe('classifyHttpError: context overflow (§54)', () => {
  it.each([
    ['OpenAI code', 400, openAiError('too long', 'context_length_exceeded')],
    [
      'OpenAI wording',
      400,
      openAiError(
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      ),
    ],
    [
      'vLLM',
      400,
      '{"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).","type":"BadRequestError","code":400}',
    ],
    [
      'vLLM scheduler',
      400,
      '{"error":{"message":"Input prompt (5000 tokens) is too long and exceeds limit of 4096"}}',
    ],
    ['vLLM negative max_tokens', 400, '{"error":{"message":"max_tokens must be at least 1, got -186."}}'],
    [
      'llama.cpp as a 500',
      500,
      '{"error":{"code":500,"message":"the request exceeds the available context size, try increasing the context size or enable context shift","type":"server_error"}}',
    ],
    ['llama.cpp type', 400, '{"error":{"code":400,"message":"whatever","type":"exceed_context_size_error"}}'],
    [
      'older llama.cpp',
      500,
      '{"error":"input (5000 tokens) is larger than the max context size (4096 tokens). skipping"}',
    ],
    ['Ollama', 400, '{"error":"the input length exceeds the context length"}'],
    ['Ollama truncate off', 400, '{"error":"prompt too long; exceeded max context length by 12 tokens"}'],
    ['router', 400, '{"error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}'],
  ])('%s → LLM_CONTEXT_OVERFLOW, not retryable', (_name, status, body) => {
    const error = classifyHttpError(status, body);
    expect(error.code).toBe('LLM_CONTEXT_OVERFLOW');
    expect(error.retryable).toBe(false);
  });

  it('does not read an ordinary 400 as overflow', () => {
    expect(classifyHttpError(400, openAiError("'messages' is required")).code).toBe('LLM_HTTP_ERROR');
  });
});

describe('classifyErrorBody without a status (stream and 200 errors)', () => {
  it('takes the kind from a numeric code', () => {
    expect(classifyErrorBody({ error: { code: 500, message: 'boom', type: 'server_error' } }).code).toBe(
      'LLM_SERVER_ERROR',
    );
    expect(classifyErrorBody({ error: { code: 429, message: 'slow down' } })).toMatchObject({
      code: 'LLM_RATE_LIMITED',
      retryable: true,
    });
    expect(
      classifyErrorBody({ error: { code: 400, message: 'bad', type: 'invalid_request_error' } }).code,
    ).toBe('LLM_HTTP_ERROR');
  });

  it('takes the kind from the type when there is no numeric code', () => {
    expect(classifyErrorBody({ error: { message: 'm', type: 'invalid_request_error' } }).code).toBe(
      'LLM_HTTP_ERROR',
    );
    expect(classifyErrorBody({ error: { message: 'm', type: 'rate_limit_exceeded' } }).code).toBe(
      'LLM_RATE_LIMITED',
    );
    expect(classifyErrorBody({ error: { message: 'm', type: 'authentication_error' } }).code).toBe(
      'LLM_AUTH_FAILED',
    );
    expect(classifyErrorBody({ error: 'an error was encountered while running the model' })).toMatchObject({
      code: 'LLM_SERVER_ERROR',
      message: 'an error was encountered while running the model',
    });
  });

  it('finds context overflow in a streamed error', () => {
    const error = classifyErrorBody({
      code: 400,
      message:
        'the request exceeds the available context size, try increasing the context size or enable context shift',
      type: 'invalid_request_error',
    });
    expect(error.code).toBe('LLM_CONTEXT_OVERFLOW');
    expect(error.details).not.toHaveProperty('status');
  });

  it('describes a body with no known fields', () => {
    expect(classifyErrorBody({ weird: 1 }, 500).message).toBe('{"weird":1}');
  });
});
