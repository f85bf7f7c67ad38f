import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SpineError } from '../../core/spine-error.js';
import type { ConfigProblem } from './config-error.js';
import { parseConfig } from './parse-config.js';

const dataFolder = new URL('../../../test/data/config/', import.meta.url);

async function readData(name: string): Promise<string> {
  return readFile(new URL(name, dataFolder), 'utf8');
}

function parseError(text: string, file = 'spine.yaml'): SpineError {
  try {
    parseConfig(text, file);
  } catch (error) {
    if (SpineError.is(error)) return error;
    throw error;
  }
  throw new Error('expected CONFIG_INVALID');
}

function problemsOf(error: SpineError): ConfigProblem[] {
  return error.details.problems as ConfigProblem[];
}

const endpoint = 'http://127.0.0.1:8080/v1';

describe('parseConfig', () => {
  it('reads the full example, merging defaults and inferring api types and providers', async () => {
    const config = parseConfig(await readData('spine.yaml'), 'spine.yaml');
    expect(Object.keys(config.models)).toEqual(['router', 'reasoning', 'coding', 'summarizer']);
    expect(config.models.router).toEqual({
      id: 'qwen/qwen3-4b-2507',
      endpoint: 'http://127.0.0.1:1234/v1',
      apiType: 'chat_completions',
      provider: 'lmstudio',
      contextLength: 8192,
      maxConcurrency: 4,
    });
    expect(config.models.reasoning).toMatchObject({
      provider: 'deepseek',
      apiType: 'chat_completions',
      apiKeyEnv: 'DEEPSEEK_API_KEY',
      timeoutS: 120,
      maxConcurrency: 2,
      quirks: { sendReasoningBack: 'tool-calls' },
    });
    expect(config.models.coding).toMatchObject({
      apiType: 'ollama',
      temperature: 0.2,
      circuitBreaker: { failureThreshold: 3, coolDownS: 10 },
    });
    expect(config.models.summarizer).toMatchObject({ apiType: 'responses', provider: 'lmstudio' });
    expect(config.budget).toEqual({ maxCalls: 200, maxTotalTokens: 2_000_000, softTotalTokens: 1_500_000 });
    expect(config.governance).toEqual({ maxTokens: 8192, blockedTools: ['fs.delete'] });
    expect(config.source?.lines['models.reasoning.api_key_env']).toBe(16);
  });

  it('names file, line and key path in that order (DECISIONS §8)', async () => {
    const error = parseError(await readData('bad-api-type.yaml'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe(
      'spine.yaml:5: models.coding.api_type: must be one of chat_completions, responses, ollama',
    );
    expect(error.details).toMatchObject({ file: 'spine.yaml', line: 5, path: 'models.coding.api_type' });
  });

  it('reports every mistake in a file, in line order, with did-you-mean for close keys', async () => {
    const error = parseError(await readData('several-mistakes.yaml'), 'config/models.yaml');
    expect(error.message.split('\n')).toEqual([
      'config/models.yaml:2: models.router.endpoint: is required (here or in defaults)',
      'config/models.yaml:4: models.router.endpont: unknown key (did you mean endpoint?)',
      'config/models.yaml:5: models.router.timeout_s: must be a number above 0',
      'config/models.yaml:8: models.coding.endpoint: must be an http(s) URL',
      'config/models.yaml:9: models.coding.max_concurrency: must be a positive integer',
      'config/models.yaml:11: models.coding.quirks.strict: must be one of true, false',
      'config/models.yaml:12: models.coding.quirks.parallel_tool_call: unknown key (did you mean parallel_tool_calls?)',
      'config/models.yaml:13: budgte: unknown key (did you mean budget?)',
    ]);
    expect(error.details).toMatchObject({
      file: 'config/models.yaml',
      line: 2,
      path: 'models.router.endpoint',
    });
  });

  it('gives YAML syntax errors a line', async () => {
    const error = parseError(await readData('broken-syntax.yaml'));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/^spine\.yaml:\d+: YAML syntax: /);
    expect(problemsOf(error)[0]?.line).toBeGreaterThanOrEqual(4);
  });

  it.each([
    ['an empty file', '', 'spine.yaml:1: the file is empty (a models: map is required)'],
    ['no models', 'budget:\n  max_calls: 3\n', 'spine.yaml:1: models: is required'],
    ['models not a map', 'models: [a, b]\n', 'spine.yaml:1: models: must be a map'],
    ['no roles', 'models: {}\n', 'spine.yaml:1: models: must name at least one model role'],
    [
      'a role without id',
      `models:\n  router:\n    endpoint: ${endpoint}\n`,
      'spine.yaml:2: models.router.id: is required',
    ],
    [
      'an unknown top-level key far from any',
      'modles: {}\nxyz: 1\n',
      'spine.yaml:1: modles: unknown key (did you mean models?)',
    ],
    [
      'an unknown provider',
      `models:\n  r:\n    id: m\n    endpoint: ${endpoint}\n    provider: lm-studio\n`,
      'spine.yaml:5: models.r.provider: must be one of openai, azure, deepseek, ollama, lmstudio, llamacpp, vllm, openai-compatible',
    ],
    [
      'an endpoint that contradicts api_type',
      'models:\n  r:\n    id: m\n    api_type: responses\n    endpoint: http://h/v1/chat/completions\n',
      'spine.yaml:5: models.r.endpoint: the URL is a chat_completions endpoint but api_type is responses',
    ],
    [
      'a temperature out of range',
      `models:\n  r:\n    id: m\n    endpoint: ${endpoint}\n    temperature: 3\n`,
      'spine.yaml:5: models.r.temperature: must be a number from 0 to 2',
    ],
    [
      'an id that is not a string',
      `models:\n  r:\n    id: 7\n    endpoint: ${endpoint}\n`,
      'spine.yaml:3: models.r.id: must be a non-empty string',
    ],
    [
      'a bad env var name',
      `models:\n  r:\n    id: m\n    endpoint: ${endpoint}\n    api_key_env: $KEY\n`,
      'spine.yaml:5: models.r.api_key_env: must be an environment variable name (letters, digits, _)',
    ],
    [
      'a duplicate key',
      `models:\n  r:\n    id: m\n    id: n\n    endpoint: ${endpoint}\n`,
      'spine.yaml:4: models.r.id: duplicate key (first on line 3)',
    ],
  ])('rejects %s', (_name, text, expected) => {
    expect(parseError(text).message.split('\n')[0]).toBe(expected);
  });

  it('infers the api type from a full URL and the provider from well-known hosts', () => {
    const config = parseConfig(
      [
        'models:',
        '  a: { id: m, endpoint: "http://127.0.0.1:11434" }',
        '  b: { id: m, endpoint: "http://127.0.0.1:11434/v1" }',
        '  c: { id: gpt-5, endpoint: "https://api.openai.com/v1/responses" }',
        '  d: { id: m, endpoint: "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=x" }',
        '  e: { id: m, endpoint: "http://127.0.0.1:9000/api/chat" }',
      ].join('\n'),
      'spine.yaml',
    );
    const summary = Object.values(config.models).map((model) => `${model.provider}/${model.apiType}`);
    expect(summary).toEqual([
      'ollama/ollama',
      'openai-compatible/chat_completions',
      'openai/responses',
      'azure/chat_completions',
      'ollama/ollama',
    ]);
  });

  it('lets a role override defaults, merging quirks key by key', () => {
    const config = parseConfig(
      [
        'defaults:',
        `  endpoint: ${endpoint}`,
        '  quirks: { strict: true, tool_message_name: true }',
        'models:',
        '  r:',
        '    id: m',
        '    quirks: { strict: false, assistant_content_with_tool_calls: "" }',
      ].join('\n'),
      'spine.yaml',
    );
    expect(config.models.r?.quirks).toEqual({
      strict: false,
      toolMessageName: true,
      assistantContentWithToolCalls: '',
    });
  });
});

describe('parseConfig on hostile files', () => {
  const endpoint = 'http://127.0.0.1:8080/v1';

  it('refuses an alias fan-out at once, naming the cause', () => {
    // One role with 200 headers, aliased by 1,000 roles: 200,000 values from a 15 KB file.
    const lines = ['models:', '  r0: &r', '    id: m', `    endpoint: ${endpoint}`, '    headers:'];
    for (let index = 0; index < 200; index += 1) lines.push(`      h${index}: v`);
    for (let index = 1; index <= 1000; index += 1) lines.push(`  r${index}: *r`);
    const error = catchConfigError(() => parseConfig(lines.join('\n'), 'spine.yaml'));
    expect(error.message).toContain('more than 100000 values through its aliases');
  });

  it('follows a plain alias (an endpoint shared by two roles)', () => {
    const config = parseConfig(
      `models:\n  a: { id: m, endpoint: &ep "${endpoint}" }\n  b: { id: n, endpoint: *ep }\n`,
      'spine.yaml',
    );
    expect(config.models.b?.endpoint).toBe(endpoint);
  });

  it('refuses a file over 1 MiB before parsing it', () => {
    const text = `models:\n  r: { id: m, endpoint: "${endpoint}" }\n# ${'x'.repeat(2 * 1024 * 1024)}\n`;
    const error = catchConfigError(() => parseConfig(text, 'spine.yaml'));
    expect(error.message).toMatch(/over the limit of 1048576/);
  });

  it('checks 95,000 keys of one map for duplicates in linear time, and finds the one', () => {
    // yaml's own uniqueKeys check compared every key with every earlier one: ~40 s for this file.
    const keys = Array.from({ length: 95_000 }, (_, index) => `k${index}: v`);
    keys.push('k7: again');
    const text = `models:\n  r:\n    id: m\n    endpoint: ${endpoint}\n    headers: {${keys.join(', ')}}\n`;
    expect(text.length).toBeLessThan(1024 * 1024);
    const error = catchConfigError(() => parseConfig(text, 'spine.yaml'));
    expect(error.message).toContain('models.r.headers.k7: duplicate key (first on line 5)');
  });
});

function catchConfigError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    expect((error as { code?: string }).code).toBe('CONFIG_INVALID');
    return error as Error;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('quirks.tool_call_format', () => {
  it('pins one family, and names the choices when misspelt', () => {
    const base =
      'models:\n  r:\n    id: m\n    endpoint: http://127.0.0.1:8080/v1\n    quirks:\n      tool_call_format:';
    const config = parseConfig(`${base} mistral\n`, 'spine.yaml');
    expect(config.models.r?.quirks).toEqual({ toolCallFormat: 'mistral' });
    const error = catchConfigError(() => parseConfig(`${base} mistrall\n`, 'spine.yaml'));
    expect(error.message).toMatch(/tool_call_format: must be one of auto, hermes/);
  });
});
