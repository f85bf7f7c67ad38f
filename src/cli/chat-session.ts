import type { ModelClient } from '../core/types.js';
import type { EngineEventListener } from '../engine/engine-events.js';
import type { EngineResult } from '../engine/engine-types.js';
import { createRunEngine, type RunEngine } from './create-run-engine.js';
import type { RunSettings } from './run-settings.js';

export interface ChatSessionOptions {
  settings: RunSettings;
  llm: ModelClient;
  onEvent: EngineEventListener;
  /** The model's context window, when known. */
  contextLength?: number;
}

export interface ToolSummary {
  name: string;
  description: string;
}

/**
 * One conversation at a time: the first input starts a run, the next ones continue it, so the model keeps
 * the whole exchange. `reset` begins a new run in a folder of its own.
 */
export class ChatSession {
  readonly #options: ChatSessionOptions;
  #run: RunEngine;
  #started = false;

  constructor(options: ChatSessionOptions) {
    this.#options = options;
    this.#run = this.#newRun();
  }

  get runId(): string {
    return this.#run.runId;
  }

  get runDir(): string {
    return this.#run.runDir;
  }

  /** Sends one user input; the signal cancels this turn only, the conversation goes on after it. */
  send(input: string, signal: AbortSignal): Promise<EngineResult> {
    const { engine, runId } = this.#run;
    if (!this.#started) {
      this.#started = true;
      return engine.start({ input, runId, signal });
    }
    return engine.continue(runId, input, { signal });
  }

  reset(): void {
    if (this.#started) this.#run.engine.release(this.#run.runId);
    this.#run = this.#newRun();
    this.#started = false;
  }

  /** The tools the model is shown, by their real names (`fs.read`, not the wire name `fs_read`). */
  async visibleTools(): Promise<ToolSummary[]> {
    const host = this.#run.tools.host;
    await host.ready();
    return host.getVisibleTools().map((spec) => ({
      name: host.resolveName(spec.function.name) ?? spec.function.name,
      description: spec.function.description ?? '',
    }));
  }

  #newRun(): RunEngine {
    return createRunEngine({ ...this.#options, completeOnAnswer: false });
  }
}
