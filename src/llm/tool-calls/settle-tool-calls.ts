import type { FinishReason, IncompleteToolCall, Repair, ToolCall, ToolSpec } from '../../core/types.js';
import { extractResponseTextCalls } from './extract-response-text-calls.js';
import { findToolCallProblems } from './find-tool-call-problems.js';
import type { ToolCallProblem } from './repair/tool-call-problem.js';
import { repairIncompleteCalls } from './repair-incomplete-calls.js';
import { extractTextToolCalls } from './text-tool-calls/extract-text-tool-calls.js';
import type { ToolCallFormat } from './text-tool-calls/tool-call-formats.js';
import { validateToolCall } from './validate-tool-arguments.js';

/** What a decoder handed over for one answer, and what the request offered. */
export interface SettleToolCallsInput {
  content: string;
  /** Calls the decoder read (strictly parsed, shape already read by `normalizeToolCalls`). */
  toolCalls: readonly ToolCall[];
  /** Calls it could not read: the repair pass gets them. */
  incompleteToolCalls: readonly IncompleteToolCall[];
  finishReason: FinishReason;
  tools: readonly ToolSpec[];
  /** The answer used every output token it was allowed: missing brackets then mean a cut, not a slip. */
  hitTokenCap: boolean;
  /** Which answer of the conversation this is (ids of text calls are derived from it). */
  turn: number;
  toolCallFormat?: ToolCallFormat;
}

/** Every call of one answer, settled: runnable, incomplete, why some cannot run, and each fix made. */
export interface SettledToolCalls {
  content: string;
  toolCalls: ToolCall[];
  incompleteToolCalls: IncompleteToolCall[];
  finishReason: FinishReason;
  repairs: Repair[];
  /** Why calls cannot run as they are (unknown tool, schema fault, unreadable): what a re-ask tells the model. */
  problems: ToolCallProblem[];
  /** The calls came from the text: the assistant message as sent differs from the one kept. */
  extracted: boolean;
  /** Reasoning found in the text (harmony analysis), to add to the answer's own. */
  extraReasoning?: string;
  /** Something changed without a repair being recorded (the finish reason, text left as text). */
  changed: boolean;
}

/**
 * The one place a tool call is settled (issue 10 §4), once per answer, in this order: calls the decoder could
 * not parse go through the lenient repair pipeline (each fix a repair; a call cut off by the token limit stays
 * incomplete); when tools were offered and no structured call came, calls written in the text are extracted —
 * just another source of calls, which then take the same path; arguments are coerced by the tool's schema; and
 * what still cannot run is recorded as problems, which the re-ask reads instead of checking again.
 */
export function settleToolCalls(input: SettleToolCallsInput): SettledToolCalls {
  const settled: SettledToolCalls = {
    content: input.content,
    toolCalls: [...input.toolCalls],
    incompleteToolCalls: [...input.incompleteToolCalls],
    finishReason: input.finishReason,
    repairs: [],
    problems: [],
    extracted: false,
    changed: false,
  };
  repairStructuredCalls(settled, input.hitTokenCap);
  if (input.tools.length > 0 && input.toolCalls.length === 0 && input.incompleteToolCalls.length === 0)
    extractTextCalls(settled, input);
  else if (input.tools.length === 0 && settled.content.includes(harmonyChannel)) readHarmonyAnswer(settled);
  coerceBySchema(settled, input.tools);
  if (input.tools.length > 0) settled.problems = findToolCallProblems(settled, input.tools);
  // A `tool_calls` finish with no call at all, not even a broken one (vLLM under `tool_choice: "required"`
  // when its parser found none, RUNNER-QUIRKS §15), is an answer: say `stop`.
  if (
    settled.finishReason === 'tool_calls' &&
    settled.toolCalls.length === 0 &&
    settled.incompleteToolCalls.length === 0
  ) {
    settled.finishReason = 'stop';
    settled.changed = true;
  }
  return settled;
}

function repairStructuredCalls(settled: SettledToolCalls, cappedByTokens: boolean): void {
  if (settled.incompleteToolCalls.length === 0) return;
  const repaired = repairIncompleteCalls(settled.incompleteToolCalls, settled.finishReason, cappedByTokens);
  if (repaired.toolCalls.length === 0) {
    // A `tool_calls` finish with nothing runnable was a truncation (RUNNER-QUIRKS §16): never run, say `length`.
    if (settled.finishReason === 'tool_calls') {
      settled.finishReason = 'length';
      settled.changed = true;
    }
    return;
  }
  settled.toolCalls.push(...repaired.toolCalls);
  settled.incompleteToolCalls = repaired.incompleteToolCalls;
  settled.repairs.push(...repaired.repairs);
  // A `length` finish with only unparseable calls is how a decoder reads a `tool_calls` finish whose calls
  // it could not parse (RUNNER-QUIRKS §16); mended calls that were not cut off make it a tool-call turn.
  if (settled.incompleteToolCalls.length === 0 && settled.finishReason !== 'content_filter')
    settled.finishReason = 'tool_calls';
}

const harmonyChannel = '<|channel|>';

/**
 * GPT-OSS channel markup left raw in an answer without tools: the analysis becomes reasoning and the final
 * channel the content, so the markup never goes back in the history (llama-server refuses it, RUNNER-QUIRKS
 * §38). No tool was offered, so a call in it is not one: only the text and the reasoning are taken.
 */
function readHarmonyAnswer(settled: SettledToolCalls): void {
  const found = extractTextToolCalls(settled.content, [], 'harmony');
  if (found.content === settled.content && found.reasoning === undefined) return;
  settled.content = found.content;
  if (found.reasoning !== undefined) settled.extraReasoning = found.reasoning;
  settled.changed = true;
}

function extractTextCalls(settled: SettledToolCalls, input: SettleToolCallsInput): void {
  const found = extractResponseTextCalls(settled.content, {
    toolNames: input.tools.map((tool) => tool.function.name),
    finishReason: settled.finishReason,
    responseKey: `turn-${input.turn}`,
    ...(input.toolCallFormat !== undefined ? { toolCallFormat: input.toolCallFormat } : {}),
  });
  if (found === undefined) return;
  if (found.reasoning !== undefined) settled.extraReasoning = found.reasoning;
  if (found.toolCalls.length === 0 && found.incompleteToolCalls.length === 0) {
    // Only unreadable markup (left as text) or a harmony answer without calls.
    if (found.content !== settled.content || found.reasoning !== undefined) settled.changed = true;
    settled.content = found.content;
    settled.repairs.push(...found.repairs);
    return;
  }
  settled.extracted = true;
  settled.content = found.content;
  settled.toolCalls = found.toolCalls;
  settled.incompleteToolCalls = found.incompleteToolCalls;
  settled.repairs.push(...found.repairs);
  if (
    found.toolCalls.length > 0 &&
    settled.finishReason !== 'length' &&
    settled.finishReason !== 'content_filter'
  )
    settled.finishReason = 'tool_calls';
}

// Schema-guided unwrapping (double-encoded objects, "3" where an integer is declared).
function coerceBySchema(settled: SettledToolCalls, tools: readonly ToolSpec[]): void {
  if (tools.length === 0) return;
  settled.toolCalls = settled.toolCalls.map((call) => {
    const checked = validateToolCall(call, tools);
    if (!checked.ok || checked.repairs.length === 0) return call;
    settled.repairs.push(...checked.repairs);
    return { ...call, arguments: checked.arguments };
  });
}
