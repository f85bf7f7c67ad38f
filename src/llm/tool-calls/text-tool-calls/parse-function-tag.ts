import { createTextToolCall, type TextToolCallWire } from './text-tool-call-wire.js';

/**
 * Reads `<function=NAME>…</function>` at `start`: Qwen3-Coder's `<parameter=P>value</parameter>` list (values
 * stay strings; the schema converts them later, RUNNER-QUIRKS §25) or Llama's JSON body (§27), kept as the
 * raw arguments string so the repair step sees and records any fix. The closing tag may be missing.
 */
export function parseFunctionTag(text: string, start: number): { call: TextToolCallWire; end: number } {
  const nameStart = start + '<function='.length;
  const nameEnd = text.indexOf('>', nameStart);
  if (nameEnd === -1) return { call: createTextToolCall(text.slice(nameStart).trim(), {}), end: text.length };
  const name = text.slice(nameStart, nameEnd).trim();
  const close = text.indexOf('</function>', nameEnd);
  const bodyEnd = close === -1 ? findBodyEnd(text, nameEnd + 1) : close;
  const end = close === -1 ? bodyEnd : close + '</function>'.length;
  const body = text.slice(nameEnd + 1, bodyEnd);
  if (body.trim().startsWith('<parameter=')) {
    return { call: createTextToolCall(name, { arguments: readParameters(body) }), end };
  }
  return { call: createTextToolCall(name, { arguments: body.trim() }), end };
}

function findBodyEnd(text: string, from: number): number {
  const candidates = ['</tool_call>', '<function=']
    .map((tag) => text.indexOf(tag, from))
    .filter((at) => at !== -1);
  return candidates.length === 0 ? text.length : Math.min(...candidates);
}

function readParameters(body: string): Record<string, unknown> {
  const pattern = /<parameter=([^>\n]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g;
  const entries: Array<[string, string]> = [];
  for (const match of body.matchAll(pattern)) {
    // The template puts each value on its own lines; one newline either side is framing, not data.
    const value = match[2]!.replace(/^\n/, '').replace(/\n$/, '');
    entries.push([match[1]!.trim(), value]);
  }
  return Object.fromEntries(entries);
}
