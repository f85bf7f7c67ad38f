import { systemClock } from '../../src/core/deps.js';
import type {
  ModelClient,
  ModelRequest,
  ModelResponse,
  StreamEvent,
  ToolSpec,
} from '../../src/core/types.js';
import { createUndiciTransport } from '../../src/llm/http/undici-transport.js';
import { ollamaAdapter } from '../../src/llm/providers/ollama/ollama-adapter.js';
import type { ProviderAdapter } from '../../src/llm/providers/provider-adapter.js';
import { responsesAdapter } from '../../src/llm/providers/responses/responses-adapter.js';
import { defaultRetryOptions } from '../../src/llm/resilience/retry-policy.js';
import { collectResponse, runModelCall } from '../../src/llm/run-model-call.js';
import type { ToolCallReaskOptions } from '../../src/llm/tool-calls/tool-call-reask.js';
import { createTestClient } from '../client/client-test-kit.js';
import type { FakeRunner } from '../support/fake-runner.js';

export const weatherTool: ToolSpec = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};

export const searchTool: ToolSpec = {
  type: 'function',
  function: {
    name: 'search',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  },
};

export const tools = [weatherTool, searchTool];

export const ask: ModelRequest = {
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  tools,
};

/** The chat-completions client on the fake runner, as `createModelClient` builds it: re-asks included. */
export function createReaskClient(runner: FakeRunner, options: ToolCallReaskOptions = {}): ModelClient {
  return createTestClient(runner, { maxRetries: 0, ...options });
}

/** A client for another dialect, through the same loop (`runModelCall`) the model client runs. */
export function createDialectClient(runner: FakeRunner, dialect: 'ollama' | 'responses'): ModelClient {
  const adapter: ProviderAdapter = dialect === 'ollama' ? ollamaAdapter : responsesAdapter;
  const context = {
    adapter,
    endpoint: {
      provider: dialect === 'ollama' ? 'ollama' : 'openai-compatible',
      baseUrl: runner.baseUrl,
      model: 'm',
    },
    transport: createUndiciTransport(),
    clock: systemClock,
    random: () => 0.5,
    timeoutMs: 10_000,
    firstByteTimeoutMs: 10_000,
    idleTimeoutMs: 5_000,
    retry: { ...defaultRetryOptions, maxRetries: 0 },
  };
  return {
    stream: (request) => runModelCall(context, request, true),
    respond: (request) => collectResponse(runModelCall(context, request, false)),
  };
}

export interface StreamOutcome {
  events: StreamEvent[];
  response: ModelResponse;
  /** All `text-delta` text, in order. */
  text: string;
}

/** Runs a stream to its `done` and checks that the response agrees with the events. */
export async function streamToEnd(client: ModelClient, request: ModelRequest): Promise<StreamOutcome> {
  const events: StreamEvent[] = [];
  for await (const event of client.stream(request)) events.push(event);
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`the stream ended with ${last?.type ?? 'nothing'}`);
  const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
  return { events, response: last.response, text };
}

/** The `tool-call` events of a stream, as the calls they carry. */
export function toolCallEvents(events: readonly StreamEvent[]): unknown[] {
  return events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
}

export function repairKinds(response: ModelResponse): string[] {
  return response.repairs.map((repair) => repair.kind);
}
