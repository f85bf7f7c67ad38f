import type { ModelRequest, ModelResponse, ToolCallProblem } from '../../core/types.js';
import { settleToolCalls } from '../tool-calls/settle-tool-calls.js';
import type { ToolCallFormat } from '../tool-calls/text-tool-calls/tool-call-formats.js';
import { alignStreamedContent } from './align-streamed-content.js';
import { buildAssistantMessage } from './build-assistant-message.js';

export interface NormalizeModelResponseOptions {
  /** Streamed calls: the text already emitted as `text-delta` events; the content returned begins with it. */
  emittedText?: string;
  /** A pinned tool-call family (`quirks.tool_call_format`); every family when absent. */
  toolCallFormat?: ToolCallFormat;
}

/**
 * The provider-independent step every decoded response goes through (issue 3 §4): its tool calls are settled in
 * one place (`settleToolCalls`: repair, text extraction, schema coercion, problems), the streamed text is aligned
 * with what was already shown, and the assistant message is rebuilt when anything changed. Each fix is a
 * `repairs` entry; the problems are carried on the response for the re-ask. Returns the response itself when
 * nothing changed, else a new one. Pure.
 */
export function normalizeModelResponse(
  response: ModelResponse,
  request: ModelRequest,
  options: NormalizeModelResponseOptions = {},
): ModelResponse {
  const tools = request.tools ?? [];
  const settled = settleToolCalls({
    content: response.content,
    toolCalls: response.toolCalls,
    incompleteToolCalls: response.incompleteToolCalls,
    finishReason: response.finishReason,
    tools,
    hitTokenCap: hitTokenCap(response, request),
    turn: request.messages.length,
    ...(options.toolCallFormat !== undefined ? { toolCallFormat: options.toolCallFormat } : {}),
  });
  const emitted = options.emittedText;
  const content = emitted === undefined ? settled.content : alignStreamedContent(emitted, settled.content);
  if (settled.repairs.length === 0 && content === response.content && !settled.changed)
    return withProblems(response, settled.problems);
  const reasoning =
    settled.extraReasoning === undefined
      ? response.reasoning
      : [response.reasoning, settled.extraReasoning].filter((part) => part).join('\n\n');
  const normalized: ModelResponse = {
    ...response,
    content,
    reasoning,
    toolCalls: settled.toolCalls,
    incompleteToolCalls: settled.incompleteToolCalls,
    finishReason: settled.finishReason,
    repairs: [...response.repairs, ...settled.repairs],
    message: buildAssistantMessage(response.message, content, settled.toolCalls),
  };
  if (settled.extracted) normalized.sentMessage = response.message;
  return withProblems(normalized, settled.problems);
}

/** The answer with the problems of its calls, found once when they were settled; itself when there are none. */
function withProblems(response: ModelResponse, problems: ToolCallProblem[]): ModelResponse {
  return problems.length === 0 ? response : { ...response, toolCallProblems: problems };
}

function hitTokenCap(response: ModelResponse, request: ModelRequest): boolean {
  const used = response.usage.completionTokens;
  return request.maxTokens !== undefined && used !== null && used >= request.maxTokens;
}
