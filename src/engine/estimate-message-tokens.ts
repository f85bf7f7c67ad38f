import type { ChatMessage } from '../core/types.js';

/** Per-message framing every chat template adds (role markers, separators). */
const messageOverheadTokens = 4;
/** An image part costs a fixed amount on most runners; 85 tokens is OpenAI's low-detail price. */
const imageTokens = 85;

/**
 * A cheap token estimate for one message: characters / 4 plus framing. It is only a starting point; the
 * history scales it by a ratio learned from the prompt tokens the runner reports.
 */
export function estimateMessageTokens(message: ChatMessage): number {
  let characters = 0;
  let fixed = messageOverheadTokens;
  if (typeof message.content === 'string') characters += message.content.length;
  else if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part.type === 'text') characters += part.text.length;
      else fixed += imageTokens;
    }
  }
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      characters += call.id.length + call.function.name.length + call.function.arguments.length + 12;
    }
    characters += message.reasoning_content?.length ?? 0;
  } else if (message.role === 'tool') characters += message.tool_call_id.length;
  return Math.ceil(characters / 4) + fixed;
}

/** The same estimate for the tool list sent beside the messages. */
export function estimateToolsTokens(tools: readonly unknown[]): number {
  return tools.length === 0 ? 0 : Math.ceil(JSON.stringify(tools).length / 4);
}
