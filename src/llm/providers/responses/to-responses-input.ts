import type { AssistantMessage, ChatMessage, ContentPart } from '../../../core/types.js';

export type ResponsesContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string };

/** One Responses input item (RUNNER-QUIRKS §66). */
export type ResponsesInputItem =
  | { type: 'message'; role: 'user'; content: string | ResponsesContentPart[] }
  | { type: 'message'; role: 'assistant'; content: Array<{ type: 'output_text'; text: string }> }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

export interface ResponsesInput {
  instructions?: string;
  input: ResponsesInputItem[];
}

/**
 * The canonical chat history → Responses `instructions` and input items, for a stateless call (`store:
 * false`, the full input every turn): system messages become the instructions, an assistant's tool calls
 * become `function_call` items and tool results `function_call_output` items, paired by `call_id`; every item
 * carries its `type`. Reasoning
 * is not sent back: without stored state or encrypted content a runner cannot use it. The input is only read.
 */
export function toResponsesInput(messages: readonly ChatMessage[]): ResponsesInput {
  const instructions: string[] = [];
  const input: ResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        instructions.push(message.content);
        break;
      case 'user':
        input.push({ type: 'message', role: 'user', content: toUserContent(message.content) });
        break;
      case 'assistant':
        input.push(...toAssistantItems(message));
        break;
      case 'tool':
        input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: message.content });
        break;
    }
  }
  return instructions.length > 0 ? { instructions: instructions.join('\n\n'), input } : { input };
}

function toUserContent(content: string | ContentPart[]): string | ResponsesContentPart[] {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : { type: 'input_image', image_url: part.image_url.url },
  );
}

function toAssistantItems(message: AssistantMessage): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  // Typed, as the API defines an assistant's earlier output: llama-server refuses an untyped item (RUNNER-QUIRKS,
  // found by Spine: "Cannot determine type of 'item'").
  if (message.content) {
    items.push({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: message.content }],
    });
  }
  for (const call of message.tool_calls ?? []) {
    const argumentsText = call.function.arguments.trim() === '' ? '{}' : call.function.arguments;
    items.push({
      type: 'function_call',
      call_id: call.id,
      name: call.function.name,
      arguments: argumentsText,
    });
  }
  return items;
}
