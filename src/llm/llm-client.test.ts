import {
  type Attributes,
  type AttributeValue,
  type Context,
  createContextKey,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../test/support/fake-clock.js';
import { SpineError } from '../core/spine-error.js';
import type { ModelClient, ModelRequest, ModelResponse, StreamEvent, Usage } from '../core/types.js';
import { parseConfig } from './config/parse-config.js';
import { createLlmClient, type LlmClientEvent, type RoleModelClientOptions } from './llm-client.js';

/** A Tracer that keeps every span in memory (the @opentelemetry/api interfaces, no SDK). */
class RecordingSpan implements Span {
  readonly attributes: Attributes = {};
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  ended = false;
  readonly exceptions: unknown[] = [];
  constructor(
    public name: string,
    readonly parent: Context | undefined,
  ) {}
  spanContext(): SpanContext {
    return { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(name: string): this {
    this.name = name;
    return this;
  }
  end(): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return !this.ended;
  }
  recordException(exception: unknown): void {
    this.exceptions.push(exception);
  }
}

class RecordingTracer implements Tracer {
  readonly spans: RecordingSpan[] = [];
  startSpan(name: string, options?: SpanOptions, context?: Context): Span {
    const span = new RecordingSpan(name, context);
    if (options?.attributes) span.setAttributes(options.attributes);
    this.spans.push(span);
    return span;
  }
  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const run = rest[rest.length - 1] as F;
    return run(this.startSpan(name)) as ReturnType<F>;
  }
}

const usage: Usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15, latencyMs: 3 };

function createResponse(content = 'ok'): ModelResponse {
  const message = { role: 'assistant' as const, content };
  return {
    content,
    toolCalls: [],
    incompleteToolCalls: [],
    reasoning: null,
    usage,
    finishReason: 'stop',
    model: 'm',
    repairs: [],
    message,
    raw: {},
  };
}

/** A model client per role whose answers a test scripts; every request and factory call is recorded. */
function createFakeModels(
  answer: (request: ModelRequest, role: string) => Promise<ModelResponse> = async () => createResponse(),
) {
  const built: RoleModelClientOptions[] = [];
  const requests: { role: string; request: ModelRequest }[] = [];
  const factory = (options: RoleModelClientOptions): ModelClient => {
    built.push(options);
    return {
      respond: (request) => {
        requests.push({ role: options.role, request });
        return answer(request, options.role);
      },
      async *stream(request): AsyncGenerator<StreamEvent> {
        requests.push({ role: options.role, request });
        yield { type: 'text-delta', text: 'o' };
        yield { type: 'text-delta', text: 'k' };
        yield { type: 'done', response: await answer(request, options.role) };
      },
    };
  };
  return { factory, built, requests };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return SpineError.is(error) ? error.code : 'not a SpineError';
  }
  return undefined;
}

const endpoint = 'http://127.0.0.1:8080/v1';
const messages = [{ role: 'user' as const, content: 'hi' }];

function yamlConfig(lines: string[]) {
  return parseConfig(lines.join('\n'), 'spine.yaml');
}

const fourRoles = yamlConfig([
  'defaults:',
  `  endpoint: ${endpoint}`,
  'models:',
  '  router: { id: small }',
  '  reasoning: { id: thinker }',
  '  coding: { id: coder, temperature: 0.2, max_tokens: 900 }',
  '  summarizer: { id: other }',
  '  slow: { id: big, timeout_s: 300 }',
]);

describe('createLlmClient', () => {
  it('applies per-role default timeouts: router 5 s, reasoning 60 s, coding 45 s, others 60 s, timeout_s wins', async () => {
    const models = createFakeModels();
    const llm = createLlmClient(fourRoles, { createModelClient: models.factory, env: {} });
    for (const role of ['router', 'reasoning', 'coding', 'summarizer', 'slow'])
      await llm.respond({ role, messages });
    const timeouts = Object.fromEntries(
      models.requests.map(({ role, request }) => [role, request.timeoutMs]),
    );
    expect(timeouts).toEqual({
      router: 5_000,
      reasoning: 60_000,
      coding: 45_000,
      summarizer: 60_000,
      slow: 300_000,
    });
    expect(models.built.map((options) => options.timeoutMs)).toEqual([
      5_000, 60_000, 45_000, 60_000, 300_000,
    ]);
  });

  it('lets a call override the timeout and role defaults, and never passes the role on', async () => {
    const models = createFakeModels();
    const llm = createLlmClient(fourRoles, { createModelClient: models.factory, env: {} });
    await llm.respond({ role: 'coding', messages });
    await llm.respond({ role: 'coding', messages, timeoutMs: 1_234, temperature: 0.9, maxTokens: 10 });
    const [first, second] = models.requests.map((entry) => entry.request);
    expect(first).toEqual({ messages, timeoutMs: 45_000, temperature: 0.2, maxTokens: 900 });
    expect(second).toEqual({ messages, timeoutMs: 1_234, temperature: 0.9, maxTokens: 10 });
    expect(models.built).toHaveLength(1);
    expect(models.built[0]).toMatchObject({ model: 'coder', baseUrl: endpoint, apiType: 'chat_completions' });
  });

  it('forRole gives a ModelClient bound to the role, with its defaults', async () => {
    const models = createFakeModels();
    const llm = createLlmClient(fourRoles, { createModelClient: models.factory, env: {} });
    const coding = llm.forRole('coding');
    await coding.respond({ messages });
    expect(models.requests[0]?.request).toEqual({
      messages,
      timeoutMs: 45_000,
      temperature: 0.2,
      maxTokens: 900,
    });
    expect(models.built[0]).toMatchObject({ model: 'coder' });
    await expect(llm.forRole('nope').respond({ messages })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });

  it('records one span per call with role, model, endpoint, latency and usage', async () => {
    const tracer = new RecordingTracer();
    const clock = createFakeClock();
    const models = createFakeModels(async () => {
      await clock.advance(250);
      return createResponse();
    });
    const llm = createLlmClient(fourRoles, { createModelClient: models.factory, env: {}, tracer, clock });
    const parent = ROOT_CONTEXT.setValue(createContextKey('test'), 'parent');
    await llm.respond({ role: 'router', messages, traceContext: parent });
    expect(tracer.spans).toHaveLength(1);
    const span = tracer.spans[0] as RecordingSpan;
    expect(span.name).toBe('llm.respond');
    expect(span.parent).toBe(parent);
    expect(span.ended).toBe(true);
    expect(span.status.code).toBe(SpanStatusCode.OK);
    expect(span.attributes).toMatchObject({
      role: 'router',
      model_id: 'small',
      endpoint,
      latency_ms: 250,
      'usage.prompt_tokens': 10,
      'usage.completion_tokens': 5,
      'gen_ai.request.model': 'small',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
    });
    expect(span.attributes).not.toHaveProperty('error_type');
    expect(models.requests[0]?.request).not.toHaveProperty('traceContext');
  });

  it('marks a failed call’s span with error_type and an error status', async () => {
    const tracer = new RecordingTracer();
    const models = createFakeModels(async () => {
      throw new SpineError({ code: 'LLM_TIMEOUT', message: 'too slow', retryable: true });
    });
    const llm = createLlmClient(fourRoles, { createModelClient: models.factory, env: {}, tracer });
    expect(await codeOf(llm.respond({ role: 'coding', messages }))).toBe('LLM_TIMEOUT');
    const span = tracer.spans[0] as RecordingSpan;
    expect(span.attributes.error_type).toBe('LLM_TIMEOUT');
    expect(span.attributes['error.type']).toBe('LLM_TIMEOUT');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'too slow' });
    expect(span.exceptions).toHaveLength(1);
  });

  it('never runs more than max_concurrency calls of a role at once', async () => {
    const gates: ReturnType<typeof deferred<ModelResponse>>[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const models = createFakeModels(async () => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const gate = deferred<ModelResponse>();
      gates.push(gate);
      const response = await gate.promise;
      inFlight -= 1;
      return response;
    });
    const config = yamlConfig([
      'models:',
      `  coding: { id: c, endpoint: "${endpoint}", max_concurrency: 2 }`,
    ]);
    const llm = createLlmClient(config, { createModelClient: models.factory, env: {} });
    const calls = Array.from({ length: 5 }, () => llm.respond({ role: 'coding', messages }));
    for (let round = 0; round < 5; round++) {
      await settle();
      expect(inFlight).toBeLessThanOrEqual(2);
      gates.shift()?.resolve(createResponse());
    }
    await Promise.all(calls);
    expect(mostInFlight).toBe(2);
    expect(models.requests).toHaveLength(5);
  });

  it('drops a call aborted while queued without ever sending it', async () => {
    const gate = deferred<ModelResponse>();
    const models = createFakeModels(() => gate.promise);
    const config = yamlConfig([
      'models:',
      `  coding: { id: c, endpoint: "${endpoint}", max_concurrency: 1 }`,
    ]);
    const llm = createLlmClient(config, { createModelClient: models.factory, env: {} });
    const first = llm.respond({ role: 'coding', messages });
    const controller = new AbortController();
    const queued = llm.respond({ role: 'coding', messages, signal: controller.signal });
    await settle();
    controller.abort();
    expect(await codeOf(queued)).toBe('LLM_ABORTED');
    gate.resolve(createResponse());
    await first;
    expect(models.requests).toHaveLength(1);
  });

  it('opens the circuit after consecutive retryable failures and tries again after the cool-down', async () => {
    const clock = createFakeClock();
    let failing = true;
    const models = createFakeModels(async () => {
      if (failing) throw new SpineError({ code: 'LLM_SERVER_ERROR', message: '503', retryable: true });
      return createResponse();
    });
    const events: LlmClientEvent[] = [];
    const config = yamlConfig([
      'models:',
      `  coding: { id: c, endpoint: "${endpoint}", circuit_breaker: { failure_threshold: 2, cool_down_s: 10 } }`,
    ]);
    const llm = createLlmClient(config, {
      createModelClient: models.factory,
      env: {},
      clock,
      onEvent: (event) => events.push(event),
    });
    expect(await codeOf(llm.respond({ role: 'coding', messages }))).toBe('LLM_SERVER_ERROR');
    expect(await codeOf(llm.respond({ role: 'coding', messages }))).toBe('LLM_SERVER_ERROR');
    expect(await codeOf(llm.respond({ role: 'coding', messages }))).toBe('LLM_CIRCUIT_OPEN');
    expect(models.requests).toHaveLength(2);
    expect(llm.roles()[0]?.circuitState).toBe('open');
    await clock.advance(10_000);
    failing = false;
    expect(await codeOf(llm.respond({ role: 'coding', messages }))).toBeUndefined();
    const changes = events.filter((event) => event.type === 'circuit-change');
    expect(changes.map((event) => event.type === 'circuit-change' && event.state)).toEqual([
      'open',
      'half-open',
      'closed',
    ]);
  });

  it('stops calls once the budget is used up, and warns at the soft threshold', async () => {
    const models = createFakeModels();
    const events: LlmClientEvent[] = [];
    const config = yamlConfig([
      'models:',
      `  router: { id: r, endpoint: "${endpoint}" }`,
      'budget: { max_calls: 2, soft_total_tokens: 20 }',
    ]);
    const llm = createLlmClient(config, {
      createModelClient: models.factory,
      env: {},
      onEvent: (event) => events.push(event),
    });
    await llm.respond({ role: 'router', messages });
    await llm.respond({ role: 'router', messages });
    expect(await codeOf(llm.respond({ role: 'router', messages }))).toBe('LLM_BUDGET_EXCEEDED');
    expect(models.requests).toHaveLength(2);
    expect(llm.usage()).toEqual({ calls: 2, promptTokens: 20, completionTokens: 10, totalTokens: 30 });
    expect(events.filter((event) => event.type === 'budget-warning')).toEqual([
      { type: 'budget-warning', metric: 'tokens', used: 30, threshold: 20 },
    ]);
  });

  it('streams through the same policies, and frees the slot when the consumer stops early', async () => {
    const tracer = new RecordingTracer();
    const models = createFakeModels();
    const config = yamlConfig([
      'models:',
      `  coding: { id: c, endpoint: "${endpoint}", max_concurrency: 1 }`,
    ]);
    const llm = createLlmClient(config, { createModelClient: models.factory, env: {}, tracer });
    for await (const event of llm.stream({ role: 'coding', messages })) {
      expect(event.type).toBe('text-delta');
      break;
    }
    const types: string[] = [];
    for await (const event of llm.stream({ role: 'coding', messages })) types.push(event.type);
    expect(types).toEqual(['text-delta', 'text-delta', 'done']);
    expect(tracer.spans.map((span) => [span.name, span.ended])).toEqual([
      ['llm.stream', true],
      ['llm.stream', true],
    ]);
    expect(tracer.spans[1]?.attributes['usage.completion_tokens']).toBe(5);
    expect(llm.usage().totalTokens).toBe(15);
  });

  it('fails a role whose key variable is missing only when it is used, naming the line', async () => {
    const models = createFakeModels();
    const config = yamlConfig([
      'models:',
      `  router: { id: r, endpoint: "${endpoint}" }`,
      '  reasoning:',
      '    id: deepseek-chat',
      '    endpoint: https://api.deepseek.com',
      '    api_key_env: SPINE_TEST_DEEPSEEK_KEY',
    ]);
    const llm = createLlmClient(config, { createModelClient: models.factory, env: {} });
    await llm.respond({ role: 'router', messages });
    const failure = llm.respond({ role: 'reasoning', messages }).catch((error: unknown) => error);
    const error = (await failure) as SpineError;
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe(
      'spine.yaml:6: models.reasoning.api_key_env: environment variable SPINE_TEST_DEEPSEEK_KEY is not set',
    );
    const withKey = createLlmClient(config, {
      createModelClient: models.factory,
      env: { SPINE_TEST_DEEPSEEK_KEY: 'sk-1' },
    });
    await withKey.respond({ role: 'reasoning', messages });
    expect(models.built.at(-1)).toMatchObject({
      apiKey: 'sk-1',
      provider: 'deepseek',
      model: 'deepseek-chat',
    });
  });

  it('refuses an unknown role with the configured ones listed, in respond and in stream', async () => {
    const llm = createLlmClient(fourRoles, { createModelClient: createFakeModels().factory, env: {} });
    const error = (await llm
      .respond({ role: 'planner', messages })
      .catch((caught: unknown) => caught)) as SpineError;
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('no such role (configured: router, reasoning, coding, summarizer, slow)');
    const streamed = (async () => {
      for await (const _event of llm.stream({ role: 'planner', messages })) {
        // never reached
      }
    })();
    expect(await codeOf(streamed)).toBe('CONFIG_INVALID');
  });

  it('applies governance before the call: blocked tools and caps', async () => {
    const models = createFakeModels();
    const config = yamlConfig([
      'models:',
      `  coding: { id: c, endpoint: "${endpoint}" }`,
      'governance: { max_tokens: 100, blocked_tools: [fs.delete] }',
    ]);
    const llm = createLlmClient(config, { createModelClient: models.factory, env: {} });
    const tools = [
      { type: 'function' as const, function: { name: 'fs.read' } },
      { type: 'function' as const, function: { name: 'fs.delete' } },
    ];
    await llm.respond({ role: 'coding', messages, tools, maxTokens: 5_000 });
    expect(models.requests[0]?.request).toMatchObject({ maxTokens: 100, tools: [tools[0]] });
  });

  it('lists roles with their resolved settings, and accepts a hand-written config', () => {
    const llm = createLlmClient(
      {
        models: {
          router: { id: 'qwen3:4b', endpoint: 'http://127.0.0.1:11434' },
          coding: { id: 'gpt-5', endpoint: 'https://api.openai.com/v1/responses', apiKeyEnv: 'MY_KEY' },
        },
      },
      { createModelClient: createFakeModels().factory, env: {} },
    );
    const roles = llm.roles();
    expect(
      roles.map((role) => [role.role, role.provider, role.apiType, role.baseUrl, role.timeoutMs]),
    ).toEqual([
      ['router', 'ollama', 'ollama', 'http://127.0.0.1:11434', 5_000],
      ['coding', 'openai', 'responses', 'https://api.openai.com/v1', 45_000],
    ]);
    expect(roles[1]).toMatchObject({ apiKeyEnv: 'MY_KEY', apiKeyPresent: false, circuitState: 'closed' });
    expect(roles[1]?.preset.maxTokensField).toBe('max_completion_tokens');
    expect(roles[0]).not.toHaveProperty('apiKey');
  });
});
