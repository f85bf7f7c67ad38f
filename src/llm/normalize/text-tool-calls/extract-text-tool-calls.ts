import type { Repair } from '../../../core/types.js';
import { findBareJsonCalls, findFencedCalls } from './find-json-calls.js';
import { findMarkedCalls } from './find-marked-calls.js';
import type { TextCallSpan } from './text-call-span.js';
import type { TextToolCallWire } from './text-tool-call-wire.js';

export interface ExtractedTextToolCalls {
  /** The content without the calls' markup; the text around them stays. Unchanged when no call was found. */
  content: string;
  /** Wire-shaped calls for `repairToolCall` (with `fromText: true`), in order of appearance. */
  calls: TextToolCallWire[];
  /** One `text-extracted` repair per call, `repairs[i]` for `calls[i]`; the ids are known only after repair. */
  repairs: Repair[];
  /** `cutOff[i]`: the text of `calls[i]` ended before its JSON or block closed (the answer may have been cut). */
  cutOff: boolean[];
}

// Span fixes that mean the text stopped inside the call; with a `length` finish such a call is incomplete.
const cutOffFixes = new Set([
  'truncated block closed',
  'unclosed <tool_call>',
  'truncated JSON closed',
  'truncated-json',
]);

/**
 * Finds tool calls a runner left in the message text (RUNNER-QUIRKS §24-27, §31-32), for use when tools were
 * offered and no structured calls came. Marked dialects (`<tool_call>`, `[TOOL_CALLS]`, `<|python_tag|>`,
 * `<|python_start|>`, `<function=…>`) are taken whatever they name, so a wrong name can be re-asked about;
 * unmarked JSON (fenced or bare) only when it calls an offered tool. Pure; never throws.
 */
export function extractTextToolCalls(content: string, toolNames: readonly string[]): ExtractedTextToolCalls {
  const spans = firstNonEmpty([
    () => findMarkedCalls(content),
    () => findFencedCalls(content, toolNames),
    () => findBareJsonCalls(content, toolNames),
  ]);
  if (spans.length === 0) return { content, calls: [], repairs: [], cutOff: [] };
  const calls: TextToolCallWire[] = [];
  const repairs: Repair[] = [];
  const cutOff: boolean[] = [];
  for (const span of spans) {
    const spanCutOff = span.fixes.some((fix) => cutOffFixes.has(fix));
    for (const call of span.calls) {
      repairs.push({ kind: 'text-extracted', detail: describeSpan(span, calls.length) });
      calls.push(call);
      cutOff.push(spanCutOff);
    }
  }
  return { content: removeSpans(content, spans), calls, repairs, cutOff };
}

function firstNonEmpty(finders: Array<() => TextCallSpan[]>): TextCallSpan[] {
  for (const find of finders) {
    const spans = find();
    if (spans.length > 0) return spans;
  }
  return [];
}

function describeSpan(span: TextCallSpan, index: number): string {
  const fixes = span.fixes.length === 0 ? '' : `; ${span.fixes.join(', ')}`;
  return `call ${index} found in the text as ${span.dialect} at offset ${span.start}${fixes}`;
}

function removeSpans(content: string, spans: readonly TextCallSpan[]): string {
  const pieces: string[] = [];
  let cursor = 0;
  for (const span of spans) {
    pieces.push(content.slice(cursor, span.start));
    cursor = span.end;
  }
  pieces.push(content.slice(cursor));
  return pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .join('\n\n');
}
