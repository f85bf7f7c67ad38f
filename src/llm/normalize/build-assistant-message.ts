import type { AssistantMessage, ToolCall } from '../../core/types.js';
import { toWireToolCall } from '../tool-calls/to-wire-tool-call.js';

/**
 * The chat-shaped assistant message for history after normalization: the content that stays, the runnable
 * calls with arguments a runner can parse again, and the provider's reasoning pass-back kept as it was.
 */
export function buildAssistantMessage(
  original: AssistantMessage,
  content: string,
  toolCalls: readonly ToolCall[],
): AssistantMessage {
  // OpenAI accepts null only beside tool calls; without them history must carry a string (RUNNER-QUIRKS §40).
  const message: AssistantMessage = {
    role: 'assistant',
    content: toolCalls.length > 0 && content === '' ? null : content,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls.map(toWireToolCall);
  if (original.reasoning_content !== undefined) message.reasoning_content = original.reasoning_content;
  return message;
}

// The runner's own text when it already says what the arguments are; otherwise (repaired, coerced, empty)
// the canonical JSON, since a runner that re-reads history may reject malformed arguments (RUNNER-QUIRKS §8).
