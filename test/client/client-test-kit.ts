import { SpineError } from '../../src/core/spine-error.js';
import type { ModelClient, StreamEvent } from '../../src/core/types.js';
import {
  createModelClient,
  type ModelClientDeps,
  type ModelClientOptions,
} from '../../src/llm/model-client.js';
import type { FakeRunner } from '../support/fake-runner.js';

export const hello = { messages: [{ role: 'user' as const, content: 'hi' }] };

/** A client on the fake runner with retry delays small enough for a fast suite. */
export function createTestClient(
  runner: FakeRunner,
  options: Partial<ModelClientOptions> = {},
  deps: Partial<ModelClientDeps> = {},
): ModelClient {
  return createModelClient(
    {
      baseUrl: runner.baseUrl,
      model: 'fake-model',
      retry: { baseDelayMs: 5, maxDelayMs: 20, badResponseDelayMs: 5 },
      ...options,
    },
    deps,
  );
}

export async function collectEvents(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** Runs the stream to its end; returns the events seen and the error thrown, if any. */
export async function drainStream(
  events: AsyncIterable<StreamEvent>,
): Promise<{ events: StreamEvent[]; error: SpineError | undefined }> {
  const collected: StreamEvent[] = [];
  try {
    for await (const event of events) collected.push(event);
    return { events: collected, error: undefined };
  } catch (error) {
    if (!SpineError.is(error)) throw error;
    return { events: collected, error };
  }
}

export async function catchSpineError(promise: Promise<unknown>): Promise<SpineError> {
  try {
    await promise;
  } catch (error) {
    if (SpineError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SpineError, got a result');
}

export function textOf(events: StreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

export function typesOf(events: StreamEvent[]): string[] {
  return events.map((event) => event.type);
}

/** Polls until `condition` holds (2 s at most), for states another party reaches asynchronously. */
export async function waitUntil(condition: () => boolean, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 2000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
