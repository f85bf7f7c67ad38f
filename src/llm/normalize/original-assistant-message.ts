import type { AssistantMessage, ModelResponse } from '../../core/types.js';

// Keyed by the response object itself: the message lives exactly as long as the response does.
const originals = new WeakMap<ModelResponse, AssistantMessage>();

/**
 * Remembers the assistant message as the runner sent it, for a response whose `message` normalization
 * rewrote (tool calls taken out of the text into `tool_calls`). A re-ask shows the model its own words
 * (DECISIONS.md §6), while history keeps the chat-shaped message that tool results can answer.
 */
export function rememberOriginalMessage(response: ModelResponse, message: AssistantMessage): void {
  originals.set(response, message);
}

/** The message as the runner sent it, when normalization rewrote it; undefined otherwise. */
export function originalAssistantMessage(response: ModelResponse): AssistantMessage | undefined {
  return originals.get(response);
}
