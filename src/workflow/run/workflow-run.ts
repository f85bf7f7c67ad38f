import { join } from 'node:path';
import type { ChatMessage, ModelClient } from '../../core/types.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import type { EngineError, EngineOptions, EngineResult, RunPhase } from '../../engine/engine-types.js';
import type { HistoryOptions } from '../../engine/history.js';
import { auditLogFileName } from '../../engine/run-folder.js';
import { createAuditLog } from '../../tools/audit-log.js';
import type { ToolDefinition } from '../../tools/define-tool.js';
import type { ToolSource } from '../../tools/tool-host.js';
import type { PromptComposer } from '../prompt/prompt-composer.js';
import type { RunIntent } from '../prompt/run-directive.js';
import { guardStateWrite } from '../state/guard-state-write.js';
import { isWorkflowComplete, type WorkflowState } from '../state/workflow-state.js';
import { composingClient } from './composing-client.js';
import { appendConversation, readConversation } from './conversation-log.js';
import type { RunLock } from './run-lock.js';
import type { RunPackage } from './run-package.js';
import { type RunRecord, toRecordPhase, writeRunRecord } from './run-record.js';
import { readRunState } from './run-state-file.js';
import type { WorkflowEvent, WorkflowEventListener } from './workflow-events.js';
import { createWorkflowTools, stateFileMountPath } from './workflow-tools.js';

/** How a workflow run talks to its model and what it may do; the same for `createRun` and `resumeRun`. */
export interface WorkflowRunOptions {
  llm: ModelClient;
  /** Model calls per pump (default 20); running out ends the pump `Failed` (decision 16). */
  maxTurns?: number;
  onEvent?: WorkflowEventListener;
  /** Tools beside the fs tools (a tools module, skills). */
  extraTools?: ToolDefinition[];
  /** Tool sources listed at run time (MCP servers), offered while the agent's policy enables MCP. */
  toolSources?: ToolSource[];
  requestDefaults?: EngineOptions['requestDefaults'];
  /** The model's context window and the history's budget. */
  history?: HistoryOptions;
}

/** Where one pump stopped: what `spine run --json` prints. */
export interface PumpResult {
  runId: string;
  phase: RunPhase;
  currentNodeId: string;
  assistantText: string;
  state: {
    currentNodeId: string;
    stepsCompleted: string[];
    variables: Record<string, unknown>;
    decisionLog: Array<Record<string, unknown>>;
    artifacts: string[];
  };
  turns: number;
  error?: EngineError;
}

export interface WorkflowRunParts {
  runId: string;
  runDir: string;
  project: string;
  pkg: RunPackage;
  record: RunRecord;
  composer: PromptComposer;
  lock: RunLock;
  /** `start` for a run just made, `resume` for one reopened. */
  firstIntent: RunIntent;
  options: WorkflowRunOptions;
}

/**
 * One live workflow run: the engine over its tools and model, the state guard, the conversation log and the
 * lock. `pump` drives it to its next stop point (docs/workflows.md §4.2): tool batches keep it going; an answer
 * without tool calls ends it `Completed` when the state says the workflow is complete, else `WaitingUser`.
 */
export class WorkflowRun {
  readonly runId: string;
  readonly runDir: string;
  readonly #parts: WorkflowRunParts;
  readonly #engine: Engine;
  #intent: RunIntent;
  #started = false;
  #logged = 0;
  #lastState: WorkflowState;

  constructor(parts: WorkflowRunParts) {
    this.#parts = parts;
    this.runId = parts.runId;
    this.runDir = parts.runDir;
    this.#intent = parts.firstIntent;
    const graph = parts.pkg.workflow.graph;
    this.#lastState = readRunState(parts.runDir, graph);
    const tools = createWorkflowTools({
      project: parts.project,
      packageRoot: parts.pkg.root,
      runDir: parts.runDir,
      write: parts.record.write,
      audit: createAuditLog(join(parts.runDir, auditLogFileName)),
      currentPolicy: () => {
        const agentId = parts.composer.effectiveAgentId(this.readState());
        return { agentId, policy: parts.composer.policyFor(agentId) };
      },
      guardState: (current, next) => ({
        state: summarize(guardStateWrite(graph, current, next, stateFileMountPath)),
      }),
      extraTools: parts.options.extraTools,
      toolSources: parts.options.toolSources,
    });
    const llm = composingClient(parts.options.llm, () => this.#beforeModelCall());
    this.#engine = createEngine({
      llm,
      tools,
      runDir: parts.runDir,
      projectRoot: parts.project,
      maxTurns: parts.options.maxTurns ?? 20,
      newRunId: () => parts.runId,
      toolResults: { runFolderMount: '@state' },
      onEvent: (event) => this.#onEngineEvent(event),
      isComplete: () => isWorkflowComplete(this.readState(), graph),
      ...(parts.options.requestDefaults ? { requestDefaults: parts.options.requestDefaults } : {}),
      ...(parts.options.history ? { history: parts.options.history } : {}),
    });
  }

  /** The run's state as its file says now. */
  readState(): WorkflowState {
    return readRunState(this.runDir, this.#parts.pkg.workflow.graph);
  }

  /** Drives the run to its next stop point, with the user's input (after `WaitingUser`) when there is one. */
  async pump(options: { input?: string; signal?: AbortSignal } = {}): Promise<PumpResult> {
    const state = this.readState();
    this.#lastState = state;
    await this.#saveRecord('Running', state);
    const input =
      options.input === undefined ? undefined : this.#parts.composer.userInput(options.input, 'run', state);
    const result = await this.#drive(input, options.signal);
    return this.#finish(result);
  }

  /** Releases the run's lock; the run can then be resumed by another process. */
  close(): void {
    this.#parts.lock.release();
  }

  async #drive(input: string | undefined, signal: AbortSignal | undefined): Promise<EngineResult> {
    if (!this.#started) {
      this.#started = true;
      const messages: ChatMessage[] = this.#intent === 'start' ? [] : await readConversation(this.runDir);
      this.#logged = messages.length;
      if (input !== undefined) messages.push({ role: 'user', content: input });
      return this.#engine.start({ messages, runId: this.runId, ...(signal ? { signal } : {}) });
    }
    if (input !== undefined) return this.#engine.continue(this.runId, input, signal ? { signal } : {});
    // A pump without new input on a run this object already drove: carry on from its whole transcript.
    const messages = [...(this.#engine.getMessages(this.runId) ?? [])];
    this.#engine.release(this.runId);
    return this.#engine.start({ messages, runId: this.runId, ...(signal ? { signal } : {}) });
  }

  async #finish(result: EngineResult): Promise<PumpResult> {
    await this.#persistConversation();
    let state: WorkflowState;
    try {
      state = this.readState();
    } catch {
      state = this.#lastState;
    }
    // Out of turns is a failed pump for a workflow (decision 16), not a pause.
    const phase = result.error?.code === 'ENGINE_MAX_TURNS' ? 'Failed' : result.phase;
    await this.#saveRecord(phase, state, result.error);
    this.#emit({
      type: 'workflow-phase',
      runId: this.runId,
      phase,
      currentNodeId: state.currentNodeId,
      ...(result.error ? { error: result.error } : {}),
    });
    const pumped: PumpResult = {
      runId: this.runId,
      phase,
      currentNodeId: state.currentNodeId,
      assistantText: result.assistantText,
      state: summarize(state),
      turns: result.turns,
    };
    if (result.error) pumped.error = result.error;
    return pumped;
  }

  /** The shells for the next call, composed fresh from the state; the history so far goes to the log first. */
  async #beforeModelCall(): Promise<ChatMessage[]> {
    await this.#persistConversation();
    const state = this.readState();
    const intent = this.#intent;
    this.#intent = 'continue';
    return this.#parts.composer.compose({ mode: 'run', state, intent });
  }

  async #persistConversation(): Promise<void> {
    const messages = this.#engine.getMessages(this.runId) ?? [];
    if (messages.length <= this.#logged) return;
    const fresh = messages.slice(this.#logged);
    this.#logged = messages.length;
    await appendConversation(this.runDir, fresh);
  }

  #onEngineEvent(event: WorkflowEvent): void {
    this.#emit(event);
    if (event.type !== 'tool-end' || !event.ok) return;
    let state: WorkflowState;
    try {
      state = this.readState();
    } catch {
      return;
    }
    const before = this.#lastState;
    this.#lastState = state;
    const changed =
      before.currentNodeId !== state.currentNodeId ||
      before.stepsCompleted.length !== state.stepsCompleted.length ||
      before.artifacts.length !== state.artifacts.length ||
      isWorkflowComplete(before, this.#parts.pkg.workflow.graph) !==
        isWorkflowComplete(state, this.#parts.pkg.workflow.graph);
    if (!changed) return;
    this.#emit({
      type: 'workflow-progress',
      runId: this.runId,
      from: before.currentNodeId,
      currentNodeId: state.currentNodeId,
      stepsDone: state.stepsCompleted.length,
      totalNodes: this.#parts.pkg.workflow.graph.nodes.length,
      artifacts: state.artifacts.length,
      complete: isWorkflowComplete(state, this.#parts.pkg.workflow.graph),
    });
  }

  #emit(event: WorkflowEvent): void {
    try {
      this.#parts.options.onEvent?.(event);
    } catch {
      // A broken renderer never ends a run.
    }
  }

  async #saveRecord(phase: RunPhase, state: WorkflowState, error?: EngineError): Promise<void> {
    const record: RunRecord = {
      ...this.#parts.record,
      phase: toRecordPhase(phase),
      currentNodeId: state.currentNodeId,
      stepsDone: state.stepsCompleted.length,
      updatedAt: new Date().toISOString(),
    };
    if (error) record.lastError = error;
    else delete record.lastError;
    this.#parts.record = record;
    await writeRunRecord(this.runDir, record);
  }
}

function summarize(state: WorkflowState): PumpResult['state'] {
  return {
    currentNodeId: state.currentNodeId,
    stepsCompleted: state.stepsCompleted,
    variables: state.variables,
    decisionLog: state.decisionLog,
    artifacts: state.artifacts,
  };
}
