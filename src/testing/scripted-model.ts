import { SpineError } from '../core/spine-error.js';
import type { ModelClient, ModelRequest, ModelResponse, StreamEvent } from '../core/types.js';
import { createScriptedResponse, type ScriptedAnswer } from './scripted-response.js';

/**
 * One step of a script: an answer (streamed as reasoning, text, tool-call, usage and done events), raw
 * events, an error thrown (after any events), or a call that hangs until the request's signal aborts.
 */
export type ScriptedStep =
  | ScriptedAnswer
  | { events: StreamEvent[] }
  | { error: unknown; events?: StreamEvent[] }
  | { hang: true; events?: StreamEvent[] }
  | { gate: Promise<unknown>; answer: ScriptedAnswer };

export type Script = ScriptedStep[] | ((request: ModelRequest, index: number) => ScriptedStep);

/**
 * A ModelClient that plays a script and records each request (messages copied as they were sent).
 * @example
 * const model = new ScriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 1 } }] }, { text: 'done' }]);
 */
export class ScriptedModel implements ModelClient {
  /** Every request received, in order, with its messages array copied. */
  readonly requests: ModelRequest[] = [];
  readonly #script: Script;
  /** When false, requests are not recorded (benchmarks with long histories). */
  readonly #record: boolean;

  constructor(script: Script, options: { record?: boolean } = {}) {
    this.#script = script;
    this.#record = options.record ?? true;
  }

  /** Steps not yet played (only meaningful for an array script). */
  get remaining(): number {
    return Array.isArray(this.#script)
      ? this.#script.length - this.requests.length
      : Number.POSITIVE_INFINITY;
  }

  async respond(request: ModelRequest): Promise<ModelResponse> {
    for await (const event of this.stream(request)) if (event.type === 'done') return event.response;
    throw new SpineError({ code: 'LLM_BAD_RESPONSE', message: 'scripted stream ended without done' });
  }

  async *stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    const index = this.#count++;
    if (this.#record) this.requests.push({ ...request, messages: [...request.messages] });
    const step = this.#stepAt(request, index);
    if ('events' in step && step.events) yield* step.events;
    if ('error' in step) throw step.error;
    if ('hang' in step) {
      await waitForAbort(request.signal);
      throw new SpineError({ code: 'LLM_ABORTED', message: 'the request was aborted' });
    }
    if ('events' in step) return;
    if ('gate' in step) {
      await step.gate;
      yield* answerEvents(step.answer, index);
      return;
    }
    yield* answerEvents(step, index);
  }

  #count = 0;

  #stepAt(request: ModelRequest, index: number): ScriptedStep {
    if (typeof this.#script === 'function') return this.#script(request, index);
    const step = this.#script[index];
    if (step === undefined) {
      throw new SpineError({
        code: 'LLM_BAD_RESPONSE',
        message: `scripted model: no step ${index + 1} in the script`,
      });
    }
    return step;
  }
}

function answerEvents(answer: ScriptedAnswer, turn: number): StreamEvent[] {
  const response = createScriptedResponse(answer, turn);
  const events: StreamEvent[] = [];
  if (answer.reasoning) events.push({ type: 'reasoning-delta', text: answer.reasoning });
  if (answer.text) events.push({ type: 'text-delta', text: answer.text });
  for (const call of response.toolCalls) events.push({ type: 'tool-call', call });
  events.push({ type: 'usage', usage: response.usage });
  events.push({ type: 'done', response });
  return events;
}

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
