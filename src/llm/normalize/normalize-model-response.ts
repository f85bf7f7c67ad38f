import type {
  FinishReason,
  IncompleteToolCall,
  ModelRequest,
  ModelResponse,
  Repair,
  ToolCall,
  ToolSpec,
} from '../../core/types.js';
import { alignStreamedContent } from './align-streamed-content.js';
import { buildAssistantMessage } from './build-assistant-message.js';
import { extractResponseTextCalls } from './extract-response-text-calls.js';
import { findToolCallProblems } from './find-tool-call-problems.js';
import { repairIncompleteCalls } from './repair-incomplete-calls.js';
import type { ToolCallFormat } from './text-tool-calls/tool-call-formats.js';
import { validateToolCall } from './validate-tool-arguments.js';

export interface NormalizeModelResponseOptions {
  /** Streamed calls: the text already emitted as `text-delta` events; the content returned begins with it. */
  emittedText?: string;
  /** A pinned tool-call family (`quirks.tool_call_format`); every family when absent. */
  toolCallFormat?: ToolCallFormat;
}

interface Draft {
  content: string;
  toolCalls: ToolCall[];
  incompleteToolCalls: IncompleteToolCall[];
  repairs: Repair[];
  finishReason: FinishReason;
  extracted: boolean;
  /** Reasoning found in the text (harmony analysis messages), added to the response's own. */
  extraReasoning?: string;
  /** Set when a field changed without a repair being recorded. */
  changed?: boolean;
}

/**
 * The provider-independent step every decoded response goes through (issue 3 §4): calls the decoder could
 * not parse are repaired; when tools were offered and no structured call came, calls written in the text are
 * extracted (the text around them stays); arguments are unwrapped where the tool's schema says so. Each fix
 * is a `repairs` entry. Returns the response itself when nothing changed, else a new one. Pure.
 */
export function normalizeModelResponse(
  response: ModelResponse,
  request: ModelRequest,
  options: NormalizeModelResponseOptions = {},
): ModelResponse {
  const tools = request.tools ?? [];
  const draft: Draft = {
    content: response.content,
    toolCalls: [...response.toolCalls],
    incompleteToolCalls: response.incompleteToolCalls,
    repairs: [],
    finishReason: response.finishReason,
    extracted: false,
  };
  repairStructuredCalls(draft, hitTokenCap(response, request));
  if (tools.length > 0 && response.toolCalls.length === 0 && response.incompleteToolCalls.length === 0)
    extractTextCalls(draft, tools, request.messages.length, options.toolCallFormat);
  coerceBySchema(draft, tools);
  const emitted = options.emittedText;
  const content = emitted === undefined ? draft.content : alignStreamedContent(emitted, draft.content);
  if (draft.repairs.length === 0 && content === response.content && !draft.changed)
    return withProblems(response, tools);
  const reasoning =
    draft.extraReasoning === undefined
      ? response.reasoning
      : [response.reasoning, draft.extraReasoning].filter((part) => part).join('\n\n');
  const normalized: ModelResponse = {
    ...response,
    content,
    reasoning,
    toolCalls: draft.toolCalls,
    incompleteToolCalls: draft.incompleteToolCalls,
    finishReason: draft.finishReason,
    repairs: [...response.repairs, ...draft.repairs],
    message: buildAssistantMessage(response.message, content, draft.toolCalls),
  };
  if (draft.extracted) normalized.sentMessage = response.message;
  return withProblems(normalized, tools);
}

/**
 * The answer with the problems of its calls, found here once: the re-ask reads them, nothing validates again.
 * The answer itself when there are none.
 */
function withProblems(response: ModelResponse, tools: readonly ToolSpec[]): ModelResponse {
  if (tools.length === 0) return response;
  const problems = findToolCallProblems(response, tools);
  return problems.length === 0 ? response : { ...response, toolCallProblems: problems };
}

function hitTokenCap(response: ModelResponse, request: ModelRequest): boolean {
  const used = response.usage.completionTokens;
  return request.maxTokens !== undefined && used !== null && used >= request.maxTokens;
}

function repairStructuredCalls(draft: Draft, cappedByTokens: boolean): void {
  if (draft.incompleteToolCalls.length === 0) return;
  const repaired = repairIncompleteCalls(draft.incompleteToolCalls, draft.finishReason, cappedByTokens);
  if (repaired.toolCalls.length === 0) {
    // A `tool_calls` finish with nothing runnable was a truncation (RUNNER-QUIRKS §16): never run, say `length`.
    if (draft.finishReason === 'tool_calls') {
      draft.finishReason = 'length';
      draft.changed = true;
    }
    return;
  }
  draft.toolCalls.push(...repaired.toolCalls);
  draft.incompleteToolCalls = repaired.incompleteToolCalls;
  draft.repairs.push(...repaired.repairs);
  // A `length` finish with only unparseable calls is how a decoder reads a `tool_calls` finish whose calls
  // it could not parse (RUNNER-QUIRKS §16); mended calls that were not cut off make it a tool-call turn.
  if (draft.incompleteToolCalls.length === 0 && draft.finishReason !== 'content_filter')
    draft.finishReason = 'tool_calls';
}

function extractTextCalls(
  draft: Draft,
  tools: readonly ToolSpec[],
  turn: number,
  toolCallFormat: ToolCallFormat | undefined,
): void {
  const found = extractResponseTextCalls(draft.content, {
    toolNames: tools.map((tool) => tool.function.name),
    finishReason: draft.finishReason,
    responseKey: `turn-${turn}`,
    ...(toolCallFormat !== undefined ? { toolCallFormat } : {}),
  });
  if (found === undefined) return;
  if (found.reasoning !== undefined) draft.extraReasoning = found.reasoning;
  if (found.toolCalls.length === 0 && found.incompleteToolCalls.length === 0) {
    // Only unreadable markup (left as text) or a harmony answer without calls.
    draft.content = found.content;
    draft.repairs.push(...found.repairs);
    if (found.content !== draft.content || found.reasoning !== undefined) draft.changed = true;
    return;
  }
  draft.extracted = true;
  draft.content = found.content;
  draft.toolCalls = found.toolCalls;
  draft.incompleteToolCalls = found.incompleteToolCalls;
  draft.repairs.push(...found.repairs);
  if (
    found.toolCalls.length > 0 &&
    draft.finishReason !== 'length' &&
    draft.finishReason !== 'content_filter'
  )
    draft.finishReason = 'tool_calls';
}

// Schema-guided unwrapping (double-encoded objects, "3" where an integer is declared); the check itself,
// and the re-ask when it fails, belong to `withToolCallReask`.
function coerceBySchema(draft: Draft, tools: readonly ToolSpec[]): void {
  if (tools.length === 0) return;
  draft.toolCalls = draft.toolCalls.map((call) => {
    const checked = validateToolCall(call, tools);
    if (!checked.ok || checked.repairs.length === 0) return call;
    draft.repairs.push(...checked.repairs);
    return { ...call, arguments: checked.arguments };
  });
}
