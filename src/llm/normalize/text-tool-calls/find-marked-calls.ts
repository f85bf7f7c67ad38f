import { findJsonValueEnd } from '../repair/find-json-value-end.js';
import { parseCallBody } from './parse-call-body.js';
import { parseFunctionTag } from './parse-function-tag.js';
import type { TextCallSpan } from './text-call-span.js';
import { createTextToolCall, type TextToolCallWire } from './text-tool-call-wire.js';

/** Markers that announce a tool call whatever follows (RUNNER-QUIRKS §24-27). */
export const toolCallMarkers = [
  '<tool_call>',
  '[TOOL_CALLS]',
  '<|python_tag|>',
  '<|python_start|>',
  '<function=',
];

type MarkerReader = (text: string, start: number) => TextCallSpan;

const readers: Record<string, MarkerReader> = {
  '<tool_call>': readHermesBlock,
  '[TOOL_CALLS]': readMistralCalls,
  '<|python_tag|>': (text, start) =>
    readDelimitedBlock(text, start, {
      open: '<|python_tag|>',
      close: ['<|eom_id|>', '<|eot_id|>'],
      dialect: 'llama <|python_tag|>',
    }),
  '<|python_start|>': (text, start) =>
    readDelimitedBlock(text, start, {
      open: '<|python_start|>',
      close: ['<|python_end|>'],
      dialect: 'llama <|python_start|>',
    }),
  '<function=': (text, start) => {
    const parsed = parseFunctionTag(text, start);
    return { start, end: parsed.end, dialect: '<function=…>', calls: [parsed.call], fixes: [] };
  },
};

/** Every marked call in the content, in order; markers are read left to right and never overlap. */
export function findMarkedCalls(content: string): TextCallSpan[] {
  const spans: TextCallSpan[] = [];
  let cursor = 0;
  while (cursor < content.length) {
    const next = findNextMarker(content, cursor);
    if (next === undefined) break;
    const span = readers[next.marker]!(content, next.at);
    spans.push(span);
    cursor = Math.max(span.end, next.at + next.marker.length);
  }
  return spans;
}

function findNextMarker(content: string, from: number): { marker: string; at: number } | undefined {
  let best: { marker: string; at: number } | undefined;
  for (const marker of toolCallMarkers) {
    const at = content.indexOf(marker, from);
    if (at !== -1 && (best === undefined || at < best.at)) best = { marker, at };
  }
  return best;
}

// Hermes/Qwen: `<tool_call>{json}</tool_call>`; the last block may be unclosed (stream cut, or the model stopped).
function readHermesBlock(text: string, start: number): TextCallSpan {
  const open = '<tool_call>';
  const bodyStart = start + open.length;
  const close = text.indexOf('</tool_call>', bodyStart);
  const nextOpen = text.indexOf(open, bodyStart);
  const closed = close !== -1 && (nextOpen === -1 || close < nextOpen);
  const bodyEnd = closed ? close : nextOpen === -1 ? text.length : nextOpen;
  const end = closed ? close + '</tool_call>'.length : bodyEnd;
  const body = parseCallBody(text.slice(bodyStart, bodyEnd));
  const fixes = closed ? body.fixes : [...body.fixes, 'unclosed <tool_call>'];
  return { start, end, dialect: 'hermes <tool_call>', calls: body.calls, fixes };
}

function readDelimitedBlock(
  text: string,
  start: number,
  tags: { open: string; close: string[]; dialect: string },
): TextCallSpan {
  const bodyStart = start + tags.open.length;
  const closes = tags.close
    .map((tag) => ({ tag, at: text.indexOf(tag, bodyStart) }))
    .filter((found) => found.at !== -1)
    .sort((left, right) => left.at - right.at);
  const first = closes[0];
  const bodyEnd = first === undefined ? text.length : first.at;
  const end = first === undefined ? text.length : first.at + first.tag.length;
  const body = parseCallBody(text.slice(bodyStart, bodyEnd));
  return { start, end, dialect: tags.dialect, calls: body.calls, fixes: body.fixes };
}

// Mistral: `[TOOL_CALLS]name[ARGS]{…}` (Devstral, Mistral-Small 3.2+; optionally `[CALL_ID]id` before
// `[ARGS]`, several calls back to back) or the older `[TOOL_CALLS] [{"name":…,"arguments":…}, …]`.
function readMistralCalls(text: string, start: number): TextCallSpan {
  const afterMarker = start + '[TOOL_CALLS]'.length;
  const rest = text.slice(afterMarker);
  const leading = rest.length - rest.trimStart().length;
  if (/^\s*[[{]/.test(rest)) {
    const valueStart = afterMarker + leading;
    const valueEnd = findJsonValueEnd(text, valueStart);
    const end = valueEnd === -1 ? text.length : valueEnd;
    const body = parseCallBody(text.slice(valueStart, end));
    return { start, end, dialect: 'mistral [TOOL_CALLS]', calls: body.calls, fixes: body.fixes };
  }
  const calls: TextToolCallWire[] = [];
  let cursor = afterMarker;
  for (;;) {
    const match = /^\s*([\w.-]+)(?:\[CALL_ID\][\w-]*)?\[ARGS\]\s*/.exec(text.slice(cursor));
    if (match === null) break;
    const argumentsStart = cursor + match[0].length;
    const argumentsEnd = findMistralArgumentsEnd(text, argumentsStart);
    calls.push(createTextToolCall(match[1]!, { arguments: text.slice(argumentsStart, argumentsEnd).trim() }));
    cursor = argumentsEnd;
  }
  if (calls.length === 0) {
    return {
      start,
      end: text.length,
      dialect: 'mistral [TOOL_CALLS]',
      calls: parseCallBody(rest).calls,
      fixes: [],
    };
  }
  return { start, end: cursor, dialect: 'mistral [TOOL_CALLS]', calls, fixes: [] };
}

function findMistralArgumentsEnd(text: string, from: number): number {
  if (text[from] === '{' || text[from] === '[') {
    const end = findJsonValueEnd(text, from);
    if (end !== -1) return end;
  }
  const next = text.indexOf('[TOOL_CALLS]', from);
  return next === -1 ? text.length : next;
}
