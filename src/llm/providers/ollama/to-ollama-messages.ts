import type { AssistantMessage, ChatMessage, ToolMessage, UserMessage } from '../../../core/types.js';
import { parseToolArguments } from '../../tool-calls/repair/parse-tool-arguments.js';
import { inlineImageBytes } from '../inline-image.js';

/** One message as Ollama's native `/api/chat` takes it. */
export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  images?: string[];
  tool_calls?: OllamaToolCall[];
  tool_name?: string;
  tool_call_id?: string;
}

export interface OllamaToolCall {
  id?: string;
  function: { name: string; arguments: Record<string, unknown> };
}

/**
 * Chat messages → Ollama native messages (RUNNER-QUIRKS §9, §41, §52). Call arguments go as JSON objects (a
 * string makes Ollama answer 400 "cannot unmarshal string"), tool results name their tool (`tool_name`, looked
 * up from the call id when the message has no `name`), images go inline as base64. The input is only read.
 */
export function toOllamaMessages(messages: readonly ChatMessage[]): OllamaMessage[] {
  const toolNames = collectToolNames(messages);
  return messages.map((message): OllamaMessage => {
    if (message.role === 'system') return { role: 'system', content: message.content };
    if (message.role === 'user') return toOllamaUser(message);
    if (message.role === 'assistant') return toOllamaAssistant(message);
    return toOllamaTool(message, toolNames);
  });
}

function toOllamaUser(message: UserMessage): OllamaMessage {
  if (typeof message.content === 'string') return { role: 'user', content: message.content };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text);
    else images.push(inlineImageBytes(part.image_url.url));
  }
  const wire: OllamaMessage = { role: 'user', content: texts.join('\n') };
  if (images.length > 0) wire.images = images;
  return wire;
}

function toOllamaAssistant(message: AssistantMessage): OllamaMessage {
  const wire: OllamaMessage = { role: 'assistant', content: message.content ?? '' };
  const calls = message.tool_calls ?? [];
  if (calls.length > 0) {
    wire.tool_calls = calls.map((call) => {
      const parsed = parseToolArguments(call.function.arguments);
      // A call the model got wrong is kept in history for the re-ask; Ollama still needs an object there.
      const argumentsObject = parsed.ok ? parsed.arguments : {};
      return { id: call.id, function: { name: call.function.name, arguments: argumentsObject } };
    });
  }
  return wire;
}

function toOllamaTool(message: ToolMessage, toolNames: Map<string, string>): OllamaMessage {
  const wire: OllamaMessage = { role: 'tool', content: message.content, tool_call_id: message.tool_call_id };
  const name = message.name ?? toolNames.get(message.tool_call_id);
  if (name !== undefined) wire.tool_name = name;
  return wire;
}

function collectToolNames(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  return names;
}
