import type { AssistantMessage, FinishReason, ModelResponse, Repair } from '../../../core/types.js';
import { mapFinishReason, resolveFinishReason } from '../../normalize/map-finish-reason.js';
import type { ThinkSplitter } from '../../normalize/think-splitter.js';
import { normalizeToolCalls, type RawWireToolCall } from '../../tool-calls/normalize-tool-calls.js';
import { toWireToolCall } from '../../tool-calls/to-wire-tool-call.js';
import { readOllamaUsage } from './read-ollama-usage.js';

/** Everything one Ollama answer carried, streamed or not, before normalization. */
export interface OllamaResponseParts {
  /** The content after splitting off `<think>` blocks (already flushed). */
  splitter: ThinkSplitter;
  /** Reasoning from `message.thinking` (RUNNER-QUIRKS §35). */
  thinking: string;
  rawCalls: RawWireToolCall[];
  /** The `done:true` object: finish reason, counts and durations. */
  final: Record<string, unknown>;
  model: string | null;
  latencyMs: number;
}

/** The one place an Ollama `/api/chat` answer becomes a ModelResponse (streamed and non-streamed alike). */
export function assembleOllamaResponse(parts: OllamaResponseParts): ModelResponse {
  const wireFinish = mapDoneReason(parts.final.done_reason);
  const calls = normalizeToolCalls(parts.rawCalls, wireFinish);
  // Ollama says `stop` after tool calls; the calls decide (RUNNER-QUIRKS §14).
  const finishReason = resolveFinishReason(wireFinish, {
    toolCalls: calls.toolCalls.length,
    incompleteToolCalls: calls.incompleteToolCalls,
  });
  const content = parts.splitter.text;
  const reasoning = parts.thinking + parts.splitter.reasoning;
  const message: AssistantMessage = {
    role: 'assistant',
    content: calls.toolCalls.length > 0 && content === '' ? null : content,
  };
  if (calls.toolCalls.length > 0) message.tool_calls = calls.toolCalls.map(toWireToolCall);
  return {
    content,
    toolCalls: calls.toolCalls,
    incompleteToolCalls: calls.incompleteToolCalls,
    reasoning: reasoning === '' ? null : reasoning,
    usage: readOllamaUsage(parts.final, parts.latencyMs),
    finishReason,
    model: parts.model,
    repairs: [...calls.repairs, ...describeReasoningRepairs(parts.splitter)],
    message,
    raw: parts.final,
  };
}

/** `done_reason` → finish reason. Older builds send none; `load` / `unload` answer an empty message list. */
function mapDoneReason(wire: unknown): FinishReason {
  if (wire === undefined || wire === null || wire === '' || wire === 'load' || wire === 'unload')
    return 'stop';
  return mapFinishReason(wire) ?? 'stop';
}

// History keeps the chat shape: arguments as a JSON string, whatever Ollama sent.
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
