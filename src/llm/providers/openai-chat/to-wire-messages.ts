import type { AssistantMessage, ChatMessage, WireToolCall } from '../../../core/types.js';

/**
 * Messages as runners accept them (RUNNER-QUIRKS §40, §8, §37). An assistant message with tool calls carries
 * `content: null`, one without carries `""` (never null, never missing); empty call arguments become `"{}"`;
 * `reasoning_content` goes back only where the preset asks for it. Messages needing no change are passed
 * through as they are, and the caller's objects are never written to.
 */
export function toWireMessages(messages: ChatMessage[], replaysReasoningContent: boolean): ChatMessage[] {
  let changed: ChatMessage[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as ChatMessage;
    const wire = message.role === 'assistant' ? toWireAssistant(message, replaysReasoningContent) : message;
    if (wire !== message) changed ??= messages.slice(0, index);
    changed?.push(wire);
  }
  return changed ?? messages;
}

function toWireAssistant(message: AssistantMessage, replaysReasoningContent: boolean): AssistantMessage {
  const calls = message.tool_calls;
  const hasCalls = calls !== undefined && calls.length > 0;
  const content = hasCalls ? (message.content === '' ? null : message.content) : (message.content ?? '');
  const wireCalls = hasCalls ? fillEmptyArguments(calls) : undefined;
  const reasoning = hasCalls && replaysReasoningContent ? (message.reasoning_content ?? '') : undefined;
  const unchanged =
    content === message.content &&
    wireCalls === calls &&
    message.reasoning_content === reasoning &&
    (hasCalls || calls === undefined);
  if (unchanged) return message;
  const wire: AssistantMessage = { role: 'assistant', content };
  if (wireCalls) wire.tool_calls = wireCalls;
  if (reasoning !== undefined) wire.reasoning_content = reasoning;
  return wire;
}

function fillEmptyArguments(calls: WireToolCall[]): WireToolCall[] {
  if (!calls.some((call) => call.function.arguments.trim() === '')) return calls;
  return calls.map((call) =>
    call.function.arguments.trim() === ''
      ? { ...call, function: { ...call.function, arguments: '{}' } }
      : call,
  );
}
