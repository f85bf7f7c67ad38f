import type { TextCallSpan } from './text-call-span.js';
import { createTextToolCall, type TextToolCallWire } from './text-tool-call-wire.js';

const messageEnds = ['<|end|>', '<|call|>', '<|return|>'];
const messageStarts = ['<|start|>', '<|channel|>'];

/**
 * GPT-OSS (harmony) messages left raw in the content, as a runner without a harmony parser passes them on:
 * `<|channel|>analysis<|message|>…<|end|>` is reasoning, `<|channel|>commentary to=functions.name
 * <|constrain|>json<|message|>{…}<|call|>` a call (the recipient may also stand before `<|channel|>`), and the
 * `final` channel (or commentary without a recipient) is the answer's text. Sources: vLLM
 * `tool_parsers/openai_tool_parser.py`, llama.cpp `common_chat_parse_gpt_oss`, OpenAI's harmony format guide.
 */
export function readHarmonyMessages(text: string, start: number): TextCallSpan {
  const calls: TextToolCallWire[] = [];
  const reasoning: string[] = [];
  const kept: string[] = [];
  let cursor = start;
  for (;;) {
    const messageAt = text.indexOf('<|message|>', cursor);
    if (messageAt === -1) break;
    const header = text.slice(cursor, messageAt);
    const bodyStart = messageAt + '<|message|>'.length;
    const close = findFirst(text, [...messageEnds, ...messageStarts], bodyStart);
    const bodyEnd = close === undefined ? text.length : close.at;
    const body = text.slice(bodyStart, bodyEnd);
    const channel = /<\|channel\|>\s*(\w+)/.exec(header)?.[1] ?? 'final';
    const recipient = /to=functions\.([\w.-]+)/.exec(header)?.[1];
    if (recipient !== undefined)
      calls.push(createTextToolCall(recipient, { arguments: body.trim() || '{}' }));
    else if (channel === 'analysis') reasoning.push(body.trim());
    else kept.push(body.trim());
    cursor =
      close === undefined
        ? text.length
        : messageEnds.includes(close.tag)
          ? close.at + close.tag.length
          : close.at;
    const next = skipSpace(text, cursor);
    if (!messageStarts.some((tag) => text.startsWith(tag, next))) break;
    cursor = next;
  }
  const span: TextCallSpan = {
    start,
    end: Math.max(cursor, start + 1),
    dialect: 'harmony',
    calls,
    fixes: [],
  };
  span.replacement = kept.filter((piece) => piece !== '').join('\n\n');
  if (reasoning.length > 0) span.reasoning = reasoning.join('\n\n');
  return span;
}

function findFirst(
  text: string,
  tags: readonly string[],
  from: number,
): { tag: string; at: number } | undefined {
  let best: { tag: string; at: number } | undefined;
  for (const tag of tags) {
    const at = text.indexOf(tag, from);
    if (at !== -1 && (best === undefined || at < best.at)) best = { tag, at };
  }
  return best;
}

function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  return index;
}
