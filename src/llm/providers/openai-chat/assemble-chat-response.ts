import type { AssistantMessage, ModelResponse, Repair } from '../../../core/types.js';
import { mapFinishReason, resolveFinishReason } from '../../normalize/map-finish-reason.js';
import { mapUsage } from '../../normalize/map-usage.js';
import type { ThinkSplitter } from '../../normalize/think-splitter.js';
import { normalizeToolCalls, type RawWireToolCall } from '../../tool-calls/normalize-tool-calls.js';
import { toWireToolCall } from '../../tool-calls/to-wire-tool-call.js';

/** Everything one answer carried, streamed or not, before normalization. */
export interface ChatResponseParts {
  /** The content after splitting off `<think>` blocks (already flushed). */
  splitter: ThinkSplitter;
  /** Reasoning that came in its own field, and whether that field was `reasoning_content`. */
  fieldReasoning: string;
  hasReasoningContent: boolean;
  rawCalls: RawWireToolCall[];
  wireFinishReason: unknown;
  wireUsage: unknown;
  timings: unknown;
  model: string | null;
  raw: unknown;
  latencyMs: number;
}

/** The one place a Chat Completions answer becomes a ModelResponse (streamed and non-streamed alike). */
export function assembleChatResponse(parts: ChatResponseParts): ModelResponse {
  const wireFinish = mapFinishReason(parts.wireFinishReason);
  const calls = normalizeToolCalls(parts.rawCalls, wireFinish ?? 'unknown');
  const finishReason = resolveFinishReason(wireFinish, {
    toolCalls: calls.toolCalls.length,
    incompleteToolCalls: calls.incompleteToolCalls,
  });
  const content = parts.splitter.text;
  const reasoning = parts.fieldReasoning + parts.splitter.reasoning;
  const message: AssistantMessage = {
    role: 'assistant',
    // OpenAI accepts null only beside tool calls; without them history must carry a string (RUNNER-QUIRKS §40).
    content: calls.toolCalls.length > 0 && content === '' ? null : content,
  };
  if (calls.toolCalls.length > 0) message.tool_calls = calls.toolCalls.map(toWireToolCall);
  if (parts.hasReasoningContent) message.reasoning_content = parts.fieldReasoning;
  return {
    content,
    toolCalls: calls.toolCalls,
    incompleteToolCalls: calls.incompleteToolCalls,
    reasoning: reasoning === '' ? null : reasoning,
    usage: mapUsage(parts.wireUsage, parts.latencyMs, parts.timings),
    finishReason,
    model: parts.model,
    repairs: [...calls.repairs, ...describeReasoningRepairs(parts.splitter)],
    message,
    raw: parts.raw,
  };
}

// Sent back to a runner, `""` arguments fail on Ollama /v1 (RUNNER-QUIRKS §8): always a JSON object text.
function describeReasoningRepairs(splitter: ThinkSplitter): Repair[] {
  const repairs: Repair[] = [];
  if (splitter.startedInsideBlock)
    repairs.push({
      kind: 'think-opened-by-template',
      detail: 'content began inside a <think> block; the text before </think> is reasoning',
    });
  if (splitter.endedInsideBlock)
    repairs.push({
      kind: 'unclosed-think',
      detail: 'the <think> block was never closed; all of it was read as reasoning',
    });
  return repairs;
}
