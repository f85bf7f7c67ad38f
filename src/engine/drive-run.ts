import { SpineError } from '../core/spine-error.js';
import type { AssistantMessage, FinishReason, ModelResponse, ToolSpec } from '../core/types.js';
import { toWireToolCall } from '../llm/tool-calls/to-wire-tool-call.js';
import { callModelWithTrim } from './call-model-with-trim.js';
import { capToolMessage, resolveToolResultMaxBytes } from './cap-tool-result.js';
import type { EngineEvent } from './engine-events.js';
import type { EngineError, EngineOptions, EngineResult, RunPhase } from './engine-types.js';
import { estimateToolsTokens } from './estimate-message-tokens.js';
import { LoopDetector } from './loop-detector.js';
import type { RunState } from './run-state.js';
import { runToolCalls, type ToolRun } from './run-tool-calls.js';
import { abortedError } from './stream-model-response.js';
import { type EngineTurn, formatTurnId } from './turn-records.js';

export interface DriveContext {
  options: EngineOptions;
  emit: (event: EngineEvent) => void;
  record?: (turn: EngineTurn) => Promise<void>;
}

interface Stop {
  phase: RunPhase;
  reason: string;
  error?: EngineError;
}

/** Runs turns until a stop point: one `start` or `continue`. */
export async function driveRun(
  context: DriveContext,
  state: RunState,
  signal: AbortSignal,
): Promise<EngineResult> {
  const { options } = context;
  const maxTurns = options.maxTurns ?? 20;
  const detector = new LoopDetector(options.maxRepeatedFailures ?? 3);
  let turns = 0;
  let assistantText = '';
  let finishReason: FinishReason | undefined;
  let stop: Stop | undefined;
  try {
    await options.tools.ready();
    const tools = options.tools.getVisibleTools({ allow: options.allowTools });
    state.history.setFixedOverhead(estimateToolsTokens(tools));
    while (stop === undefined) {
      if (signal.aborted) stop = failedStop(abortedError(signal.reason));
      else if (turns >= maxTurns) stop = maxTurnsStop(maxTurns);
      else {
        turns += 1;
        const turn = await runTurn({ context, state, signal, tools, detector, turns });
        assistantText = turn.assistantText ?? assistantText;
        finishReason = turn.finishReason ?? finishReason;
        stop = turn.stop;
      }
    }
  } catch (error) {
    stop = failedStop(error);
  }
  state.phase = stop.phase;
  const result: EngineResult = {
    success: stop.phase === 'Completed' || (stop.phase === 'WaitingUser' && stop.error === undefined),
    phase: stop.phase,
    assistantText,
    turns,
    runId: state.runId,
    messages: [...state.history.messages],
  };
  if (stop.error) result.error = stop.error;
  if (finishReason !== undefined) result.finishReason = finishReason;
  return result;
}

interface TurnInput {
  context: DriveContext;
  state: RunState;
  signal: AbortSignal;
  tools: ToolSpec[];
  detector: LoopDetector;
  turns: number;
}

async function runTurn(
  input: TurnInput,
): Promise<{ stop?: Stop; assistantText?: string; finishReason?: FinishReason }> {
  const { context, state, signal } = input;
  const { options, emit } = context;
  state.turnCount += 1;
  const turnId = formatTurnId(state.turnCount);
  const runId = state.runId;
  const phaseBefore = state.phase;
  state.phase = 'Running';
  emit({ type: 'turn-start', runId, turnId, turn: state.turnCount });
  const outcome = await callModelWithTrim({
    llm: options.llm,
    history: state.history,
    tools: input.tools,
    base: { ...options.requestDefaults },
    signal,
    runId,
    turnId,
    emit,
  });
  const record: EngineTurn = { schemaVersion: 1, runId, id: turnId, phaseBefore, request: outcome.sent };
  if (outcome.response === undefined) {
    const stop = failedStop(signal.aborted ? abortedError(signal.reason) : outcome.error);
    await writeRecord(context, {
      ...record,
      error: stop.error,
      uiAfter: { phase: stop.phase, stopReason: stop.reason },
    });
    return { stop };
  }
  const response = outcome.response;
  reportResponse(context, runId, turnId, response);
  const { stop, toolRuns } = await settleResponse(input, response, turnId);
  record.response = { assistant: assistantMessageOf(response) };
  if (toolRuns.length > 0) record.toolRuns = toolRuns;
  record.uiAfter = stop
    ? { phase: stop.phase, stopReason: stop.reason }
    : { phase: 'Running', stopReason: 'tool_calls' };
  await writeRecord(context, record);
  return { stop, assistantText: response.content, finishReason: response.finishReason };
}

async function settleResponse(
  input: TurnInput,
  response: ModelResponse,
  turnId: string,
): Promise<{ stop?: Stop; toolRuns: ToolRun[] }> {
  const { context, state, signal } = input;
  const { options } = context;
  if (response.incompleteToolCalls.length > 0) {
    // A call cut off by max_tokens is never run. Its assistant message is kept without the broken calls
    // (a `tool_calls` entry with no tool message after it would make every later request invalid).
    const { tool_calls: _dropped, ...message } = response.message;
    state.history.append({ ...message, content: message.content ?? '' });
    return {
      stop: incompleteStop(response, options.requestDefaults?.maxTokens, options.history?.contextLength),
      toolRuns: [],
    };
  }
  state.history.append(assistantMessageOf(response));
  if (response.toolCalls.length === 0) {
    const complete = options.isComplete?.({
      runId: state.runId,
      assistantText: response.content,
      messages: state.history.messages,
      turns: input.turns,
    });
    return {
      stop: complete
        ? { phase: 'Completed', reason: 'completed' }
        : { phase: 'WaitingUser', reason: 'waiting_user' },
      toolRuns: [],
    };
  }
  const settled = await runToolCalls({
    calls: response.toolCalls,
    host: options.tools,
    context: {
      runId: state.runId,
      projectRoot: options.projectRoot ?? process.cwd(),
      signal,
      allow: options.allowTools,
    },
    parallel: options.parallelTools ?? false,
    runId: state.runId,
    turnId,
    emit: context.emit,
  });
  const maxBytes = resolveToolResultMaxBytes(options.toolResults, options.history?.contextLength);
  const messages = await Promise.all(
    settled.map((entry) =>
      capToolMessage(
        entry.message,
        entry.run.result.ok,
        maxBytes,
        options.runDir,
        options.toolResults?.runFolderMount,
      ),
    ),
  );
  state.history.append(...messages);
  const toolRuns = settled.map((entry) => entry.run);
  if (signal.aborted) return { stop: failedStop(abortedError(signal.reason)), toolRuns };
  for (const run of toolRuns) {
    const repeats = input.detector.record(run.toolName, run.args, run.result);
    if (repeats !== undefined) return { stop: loopStop(run, repeats), toolRuns };
  }
  return { toolRuns };
}

function reportResponse(context: DriveContext, runId: string, turnId: string, response: ModelResponse): void {
  const { emit } = context;
  for (const repair of response.repairs) emit({ type: 'repair', runId, turnId, repair });
  emit({
    type: 'model-response',
    runId,
    turnId,
    usage: response.usage,
    finishReason: response.finishReason,
    toolCallCount: response.toolCalls.length,
  });
}

/** The assistant message as received; a client that left `tool_calls` off it gets them from `toolCalls`. */
function assistantMessageOf(response: ModelResponse): AssistantMessage {
  const message = response.message;
  if (response.toolCalls.length === 0 || (message.tool_calls?.length ?? 0) > 0) return message;
  return { ...message, tool_calls: response.toolCalls.map(toWireToolCall) };
}

async function writeRecord(context: DriveContext, turn: EngineTurn): Promise<void> {
  if (context.record === undefined) return;
  try {
    await context.record(turn);
  } catch (error) {
    throw new SpineError({
      code: 'E_INTERNAL',
      message: `could not append the turn record: ${(error as Error).message}`,
      cause: error,
    });
  }
}

function failedStop(error: unknown): Stop {
  const engineError = toEngineError(error);
  return {
    phase: 'Failed',
    reason: engineError.code === 'ENGINE_ABORTED' ? 'aborted' : 'error',
    error: engineError,
  };
}

function maxTurnsStop(maxTurns: number): Stop {
  const message = `stopped after ${maxTurns} model calls (maxTurns); continue the run to give it more`;
  return {
    phase: 'WaitingUser',
    reason: 'max_turns',
    error: { code: 'ENGINE_MAX_TURNS', message, details: { maxTurns } },
  };
}

function loopStop(run: ToolRun, repeats: number): Stop {
  const code = run.result.ok ? 'unknown' : run.result.error.code;
  const message = `the same failing call ${run.toolName} (${code}) was made ${repeats} times; stopped to ask for help`;
  return {
    phase: 'WaitingUser',
    reason: 'loop_detected',
    error: {
      code: 'ENGINE_LOOP_DETECTED',
      message,
      details: { toolName: run.toolName, args: run.args, repeats },
    },
  };
}

function incompleteStop(response: ModelResponse, maxTokens?: number, contextLength?: number): Stop {
  const calls = response.incompleteToolCalls.map((call) => ({
    id: call.id,
    name: call.name,
    receivedChars: call.rawArguments.length,
  }));
  const names = calls.map((call) => call.name || '(unnamed)').join(', ');
  const cause = describeCutCause(response, maxTokens, contextLength);
  const message = `the model's answer was cut off (finish ${response.finishReason}) inside a tool call to ${names}; nothing was run. ${cause.advice}`;
  return {
    phase: 'WaitingUser',
    reason: 'incomplete_tool_call',
    error: {
      code: 'ENGINE_INCOMPLETE_TOOL_CALL',
      message,
      details: { finishReason: response.finishReason, calls, cause: cause.kind, ...cause.figures },
    },
  };
}

/**
 * Which limit cut the answer, with the figures: the request's output limit when the answer used all of it,
 * else the context (the runner's slot, llama-server's `-c` / `-np`) or a cap the runner applies by itself.
 */
function describeCutCause(
  response: ModelResponse,
  maxTokens: number | undefined,
  contextLength: number | undefined,
): { kind: 'output-limit' | 'context' | 'unknown'; advice: string; figures: Record<string, number> } {
  const output = response.usage.completionTokens;
  const prompt = response.usage.promptTokens;
  const figures: Record<string, number> = {};
  if (output !== null) figures.outputTokens = output;
  if (prompt !== null) figures.promptTokens = prompt;
  if (maxTokens !== undefined) figures.maxTokens = maxTokens;
  if (contextLength !== undefined) figures.contextLength = contextLength;
  if (maxTokens !== undefined && output !== null && output >= maxTokens) {
    return {
      kind: 'output-limit',
      advice: `It used all ${output} of its ${maxTokens} output tokens: raise maxTokens (--max-tokens) or ask again.`,
      figures,
    };
  }
  if (output !== null && prompt !== null) {
    const total = output + prompt;
    const room = contextLength !== undefined ? ` of a ${contextLength}-token context` : '';
    const limit =
      maxTokens === undefined ? 'no output limit was set' : `below its output limit of ${maxTokens}`;
    return {
      kind: contextLength !== undefined && total >= contextLength * 0.95 ? 'context' : 'unknown',
      advice: `It stopped after ${output} output tokens (${limit}) with ${prompt} prompt tokens, ${total} in all${room}: the context ran out, or the runner caps answers itself. Give the model more context (llama-server: a larger -c per slot, fewer -np slots; Ollama: num_ctx), shorten the conversation, or raise the runner's own output cap (llama-server -n).`,
      figures,
    };
  }
  return {
    kind: 'unknown',
    advice: "Raise maxTokens (--max-tokens) or the runner's context, or ask again.",
    figures,
  };
}

/** Any failure as `{ code, message, details? }`: SpineErrors keep their code, the rest are `E_INTERNAL`. */
export function toEngineError(error: unknown): EngineError {
  if (SpineError.is(error)) return error.toJSON();
  return { code: 'E_INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
