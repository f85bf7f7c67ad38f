import type {
  AssistantMessage,
  FinishReason,
  IncompleteToolCall,
  ModelResponse,
} from '../../../core/types.js';
import { resolveFinishReason } from '../../normalize/map-finish-reason.js';
import { normalizeToolCalls } from '../../tool-calls/normalize-tool-calls.js';
import { generateToolCallId } from '../../tool-calls/repair/generate-tool-call-id.js';
import { isRecord } from '../../tool-calls/repair/parse-tool-arguments.js';
import { toWireToolCall } from '../../tool-calls/to-wire-tool-call.js';
import type { ResponsesOutput, ResponsesRawCall } from './read-responses-output.js';
import { readResponsesUsage } from './read-responses-usage.js';

export interface ResponsesResponseParts extends ResponsesOutput {
  /** The final response object (the body, or the `response` of the terminal stream event). */
  response: Record<string, unknown>;
  latencyMs: number;
  /** The request's `max_output_tokens`, to recognise an answer the limit cut. */
  maxOutputTokens?: number | undefined;
}

/**
 * The one place a Responses API answer becomes a ModelResponse, streamed or not. The assistant message is
 * chat-shaped like every other provider's, so history and the layers above never know which API answered.
 */
export function assembleResponsesResponse(parts: ResponsesResponseParts): ModelResponse {
  const usage = readResponsesUsage(parts.response.usage, parts.latencyMs);
  // Only for answers without calls: a call that came whole was not cut, whatever the count says.
  const wireFinish =
    parts.calls.length === 0 && reachedLimit(usage.completionTokens, parts.maxOutputTokens)
      ? 'length'
      : readFinishReason(parts.response);
  // A call the runner itself marked incomplete is never runnable, even when its cut-off JSON happens to parse.
  const calls = normalizeToolCalls(
    parts.calls.filter((call) => !call.incomplete),
    wireFinish,
  );
  parts.calls.forEach((call, position) => {
    if (call.incomplete) calls.incompleteToolCalls.push(toIncompleteCall(call, position));
  });
  const finishReason = resolveFinishReason(wireFinish, {
    toolCalls: calls.toolCalls.length,
    incompleteToolCalls: calls.incompleteToolCalls,
  });
  const message: AssistantMessage = {
    role: 'assistant',
    content: calls.toolCalls.length > 0 && parts.text === '' ? null : parts.text,
  };
  if (calls.toolCalls.length > 0) message.tool_calls = calls.toolCalls.map(toWireToolCall);
  const model = parts.response.model;
  return {
    content: parts.text,
    toolCalls: calls.toolCalls,
    incompleteToolCalls: calls.incompleteToolCalls,
    reasoning: parts.reasoning === '' ? null : parts.reasoning,
    usage,
    finishReason,
    model: typeof model === 'string' && model !== '' ? model : null,
    repairs: calls.repairs,
    message,
    raw: parts.response,
  };
}

/**
 * llama-server answers `status: "completed"` even when `max_output_tokens` cut the answer (RUNNER-QUIRKS, found by
 * Spine): output that used the whole limit was cut, whatever the status says.
 */
function reachedLimit(outputTokens: number | null, limit: number | undefined): boolean {
  return limit !== undefined && limit > 0 && outputTokens !== null && outputTokens >= limit;
}

/** `status` + `incomplete_details.reason` → finish reason; `completed` is a stop unless calls were made. */
function readFinishReason(response: Record<string, unknown>): FinishReason {
  if (response.status === 'completed' || response.status === undefined) return 'stop';
  if (response.status !== 'incomplete') return 'unknown';
  const reason = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
  if (reason === 'max_output_tokens') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return 'unknown';
}

function toIncompleteCall(call: ResponsesRawCall, position: number): IncompleteToolCall {
  const rawArguments = toText(call.arguments);
  const id = call.id ?? generateToolCallId({ position, name: call.name, rawArguments });
  return { id, name: call.name, rawArguments };
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : (JSON.stringify(value) ?? '');
}
