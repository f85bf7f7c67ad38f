import { randomUUID } from 'node:crypto';
import { SpineError } from '../core/spine-error.js';
import type { ChatMessage } from '../core/types.js';
import { driveRun } from './drive-run.js';
import { type EngineEventListener, EventBus } from './engine-events.js';
import type { EngineOptions, EngineResult, RunInput, StartOptions } from './engine-types.js';
import { MessageHistory } from './history.js';
import type { RunState } from './run-state.js';
import { createTurnRecorder, type EngineTurn } from './turn-records.js';

/** The agent loop: model → tools → model … until a stop point, observable and cancellable. */
export interface Engine {
  /** Starts a run and drives it to its first stop point. */
  start(options: StartOptions): Promise<EngineResult>;
  /** Adds the user's input to a stopped run and drives it to its next stop point. */
  continue(runId: string, userInput: string, options?: { signal?: AbortSignal }): Promise<EngineResult>;
  /** Cancels the run's current `start`/`continue`; false when nothing of it was running. */
  stop(runId: string): boolean;
  /** One-shot: start, drive to a stop point, forget the run. */
  run(options: RunInput & { signal?: AbortSignal }): Promise<EngineResult>;
  subscribe(listener: EngineEventListener): () => void;
  /** The run's whole transcript, or undefined for an unknown run. */
  getMessages(runId: string): readonly ChatMessage[] | undefined;
  /** Forgets a run that is not running (its transcript and loop state). */
  release(runId: string): void;
}

/**
 * Creates an engine over a model client and a ToolHost.
 * @example
 * const engine = createEngine({ llm: model, tools: createToolHost([readTool]), maxTurns: 10 });
 * const result = await engine.run({ input: 'Summarize README.md' });
 */
export function createEngine(options: EngineOptions): Engine {
  const runs = new Map<string, RunState>();
  const bus = new EventBus();
  if (options.onEvent) bus.subscribe(options.onEvent);
  const recordTurn = options.runDir ? createTurnRecorder(options.runDir) : undefined;
  const context = {
    options,
    emit: bus.emit.bind(bus),
    record: recordTurn as ((turn: EngineTurn) => Promise<void>) | undefined,
  };
  const newRunId = options.newRunId ?? (() => `run-${randomUUID()}`);

  const drive = async (
    state: RunState,
    kind: 'start' | 'continue',
    signal?: AbortSignal,
  ): Promise<EngineResult> => {
    const controller = new AbortController();
    state.controller = controller;
    const runSignal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    bus.emit({ type: 'run-start', runId: state.runId, kind });
    try {
      const result = await driveRun(context, state, runSignal);
      const { runId, phase, success, turns, error } = result;
      bus.emit(
        error
          ? { type: 'run-end', runId, phase, success, turns, error }
          : { type: 'run-end', runId, phase, success, turns },
      );
      return result;
    } finally {
      state.controller = undefined;
    }
  };

  const start = (startOptions: StartOptions): Promise<EngineResult> => {
    const runId = startOptions.runId ?? newRunId();
    if (runs.has(runId)) return Promise.reject(busyError(`run id "${runId}" is already in use`));
    const history = new MessageHistory(initialMessages(startOptions, options.systemPrompt), {
      answerTokens: options.requestDefaults?.maxTokens,
      ...options.history,
    });
    const state: RunState = { runId, history, phase: 'Running', turnCount: 0, controller: undefined };
    runs.set(runId, state);
    return drive(state, 'start', startOptions.signal);
  };

  return {
    start,
    continue: (runId, userInput, continueOptions = {}) => {
      const state = runs.get(runId);
      if (state === undefined) {
        return Promise.reject(new SpineError({ code: 'ENGINE_UNKNOWN_RUN', message: `no run "${runId}"` }));
      }
      if (state.controller !== undefined) return Promise.reject(busyError(`run "${runId}" is still running`));
      state.history.append({ role: 'user', content: userInput });
      return drive(state, 'continue', continueOptions.signal);
    },
    stop: (runId) => {
      const controller = runs.get(runId)?.controller;
      if (controller === undefined || controller.signal.aborted) return false;
      controller.abort(new SpineError({ code: 'ENGINE_ABORTED', message: 'the run was stopped' }));
      return true;
    },
    run: async (runOptions) => {
      const runId = newRunId();
      try {
        return await start({ ...runOptions, runId } as StartOptions);
      } finally {
        runs.delete(runId);
      }
    },
    subscribe: (listener) => bus.subscribe(listener),
    getMessages: (runId) => runs.get(runId)?.history.messages,
    release: (runId) => {
      const state = runs.get(runId);
      if (state?.controller !== undefined) throw busyError(`run "${runId}" is still running`);
      runs.delete(runId);
    },
  };
}

function initialMessages(input: RunInput, systemPrompt: string | undefined): ChatMessage[] {
  const messages: ChatMessage[] = input.messages
    ? [...input.messages]
    : [{ role: 'user', content: input.input ?? '' }];
  if (systemPrompt !== undefined && messages[0]?.role !== 'system')
    messages.unshift({ role: 'system', content: systemPrompt });
  return messages;
}

function busyError(message: string): SpineError {
  return new SpineError({ code: 'ENGINE_RUN_BUSY', message });
}
