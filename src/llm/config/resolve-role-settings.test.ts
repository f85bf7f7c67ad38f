import { describe, expect, it } from 'vitest';
import { inferApiType, inferProvider, toBaseUrl } from './infer-endpoint.js';
import { parseConfig } from './parse-config.js';
import { resolveRoleSettings } from './resolve-role-settings.js';

describe('inferApiType and toBaseUrl', () => {
  it.each([
    ['http://h:1/v1', undefined, 'http://h:1/v1'],
    ['http://h:1/v1/', undefined, 'http://h:1/v1'],
    ['http://h:1/v1/chat/completions', 'chat_completions', 'http://h:1/v1'],
    ['http://h:1/v1/responses/', 'responses', 'http://h:1/v1'],
    ['http://h:1/api/chat', 'ollama', 'http://h:1'],
  ])('%s → %s, base %s', (endpoint, apiType, baseUrl) => {
    expect(inferApiType(endpoint)).toBe(apiType);
    expect(toBaseUrl(endpoint, 'openai-compatible')).toBe(baseUrl);
  });

  it('trims an Ollama native base URL to the server root (DECISIONS §1)', () => {
    expect(toBaseUrl('http://127.0.0.1:11434/v1/', 'ollama', 'ollama')).toBe('http://127.0.0.1:11434');
    expect(toBaseUrl('http://127.0.0.1:11434/api/chat', 'ollama', 'ollama')).toBe('http://127.0.0.1:11434');
    expect(toBaseUrl('http://127.0.0.1:11434/v1', 'ollama', 'chat_completions')).toBe(
      'http://127.0.0.1:11434/v1',
    );
  });

  it('keeps Azure URLs whole', () => {
    const url = 'https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21';
    expect(inferApiType(url)).toBe('chat_completions');
    expect(inferProvider(url, undefined)).toBe('azure');
    expect(toBaseUrl(url, 'azure')).toBe(url);
  });

  it('infers providers from well-known hosts only', () => {
    expect(inferProvider('https://api.deepseek.com', undefined)).toBe('deepseek');
    expect(inferProvider('http://127.0.0.1:11434/', undefined)).toBe('ollama');
    expect(inferProvider('http://127.0.0.1:11434/v1', undefined)).toBeUndefined();
    expect(inferProvider('http://127.0.0.1:8080/v1', 'ollama')).toBe('ollama');
    expect(inferProvider('http://example.test/v1', undefined)).toBeUndefined();
  });
});

describe('resolveRoleSettings', () => {
  const config = parseConfig(
    [
      'models:',
      '  coding:',
      '    id: gpt-5-mini',
      '    endpoint: https://api.openai.com/v1',
      '    max_concurrency: 3',
      '    quirks: { strict: false }',
      '  local: { id: qwen, endpoint: "http://127.0.0.1:8080/v1", provider: llamacpp }',
    ].join('\n'),
    'spine.yaml',
  );

  it('resolves the preset with model rules and quirks, and the conventional key variable', () => {
    const settings = resolveRoleSettings(config, 'coding', { OPENAI_API_KEY: 'sk-o', LLM_API_KEY: 'sk-l' });
    expect(settings).toMatchObject({
      modelId: 'gpt-5-mini',
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      timeoutMs: 45_000,
      maxConcurrency: 3,
      apiKey: 'sk-o',
      failureThreshold: 5,
      coolDownMs: 30_000,
    });
    expect(settings.preset).toMatchObject({ strict: false, maxTokensField: 'max_completion_tokens' });
  });

  it('gives local runners the generic LLM_API_KEY only, and no limit when max_concurrency is absent', () => {
    const settings = resolveRoleSettings(config, 'local', { OPENAI_API_KEY: 'sk-o', LLM_API_KEY: 'sk-l' });
    expect(settings.apiKey).toBe('sk-l');
    expect(settings.maxConcurrency).toBe(Number.POSITIVE_INFINITY);
    expect(settings.timeoutMs).toBe(60_000);
    expect(resolveRoleSettings(config, 'local', {}).apiKey).toBeUndefined();
  });
});
