import type { Repair } from '../../../core/types.js';
import { findFunctionaryCalls } from './find-functionary-calls.js';
import { findBareJsonCalls, findBarePythonicCalls, findFencedCalls } from './find-json-calls.js';
import { findMarkedCalls, strayClosers } from './find-marked-calls.js';
import type { TextCallSpan } from './text-call-span.js';
import { createTextToolCall, type TextToolCallWire } from './text-tool-call-wire.js';
import { readingOf, type ToolCallFormat } from './tool-call-formats.js';

export interface ExtractedTextToolCalls {
  /** The content without the calls' markup; the text around them stays. Unchanged when no call was found. */
  content: string;
  /** Wire-shaped calls for `repairToolCall` (with `fromText: true`), in order of appearance. */
  calls: TextToolCallWire[];
  /** One `text-extracted` repair per call, `repairs[i]` for `calls[i]`; the ids are known only after repair. */
  repairs: Repair[];
  /** `cutOff[i]`: the text of `calls[i]` ended before its JSON or block closed (the answer may have been cut). */
  cutOff: boolean[];
  /** Call markup that held no readable call and names no offered tool: left in the content, one repair each. */
  unparsed: Repair[];
  /** Reasoning found inside call markup (a harmony `analysis` message); undefined when none. */
  reasoning?: string;
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
export function extractTextToolCalls(
  content: string,
  toolNames: readonly string[],
  format: ToolCallFormat = 'auto',
): ExtractedTextToolCalls {
  const reading = readingOf(format);
  const marked = findMarkedCalls(content, toolNames)
    .filter((span) => reading.allDialects || reading.dialects.includes(span.dialect))
    .map((span) => settleUnreadSpan(span, content, toolNames));
  const unparsed = marked.filter((span) => span.calls.length === 0 && span.replacement === undefined);
  const readable = marked.filter((span) => !unparsed.includes(span));
  const spans =
    readable.length > 0
      ? readable
      : firstNonEmpty(
          (
            [
              ['fenced', () => findFencedCalls(content, toolNames)],
              ['bare-json', () => findBareJsonCalls(content, toolNames)],
              ['pythonic', () => findBarePythonicCalls(content, toolNames)],
              ['functionary', () => findFunctionaryCalls(content, toolNames)],
            ] as const
          )
            .filter(([finder]) => reading.unmarked.includes(finder))
            .map(([, find]) => find),
        );
  const unparsedRepairs: Repair[] = unparsed.map((span) => ({
    kind: 'unparsed-call-markup',
    detail: `${span.dialect} markup at offset ${span.start} held no readable tool call; left as text`,
  }));
  if (spans.length === 0) return { content, calls: [], repairs: [], cutOff: [], unparsed: unparsedRepairs };
  const calls: TextToolCallWire[] = [];
  const repairs: Repair[] = [];
  const cutOff: boolean[] = [];
  const reasoning: string[] = [];
  for (const span of spans) {
    const spanCutOff = span.fixes.some((fix) => cutOffFixes.has(fix) || fix.startsWith('unclosed '));
    if (span.reasoning !== undefined) reasoning.push(span.reasoning);
    for (const call of span.calls) {
      repairs.push({ kind: 'text-extracted', detail: describeSpan(span, calls.length) });
      calls.push(call);
      cutOff.push(spanCutOff);
    }
  }
  const result: ExtractedTextToolCalls = {
    content: removeSpans(
      content,
      spans.map((span) => includeStrayClosers(content, span)),
    ),
    calls,
    repairs,
    cutOff,
    unparsed: unparsedRepairs,
  };
  if (reasoning.length > 0) result.reasoning = reasoning.join('\n\n');
  return result;
}

/**
 * A marker whose body held no named call: when its text names an offered tool it is a malformed call to that
 * tool (the re-ask tells the model what was wrong); otherwise it is not a call at all.
 */
function settleUnreadSpan(span: TextCallSpan, content: string, toolNames: readonly string[]): TextCallSpan {
  if (span.calls.length > 0 || span.replacement !== undefined) return span;
  const text = content.slice(span.start, span.end);
  const named = toolNames.find((name) =>
    new RegExp(`(^|[^\\w.-])${escapeRegExp(name)}($|[^\\w.-])`).test(text),
  );
  if (named === undefined) return span;
  const body = text.slice(text.indexOf(named) + named.length);
  const argumentsStart = body.search(/[[{]/);
  const rawArguments = argumentsStart === -1 ? body.trim() : body.slice(argumentsStart).trim();
  return { ...span, calls: [createTextToolCall(named, { arguments: rawArguments })] };
}

/** A span with the closing tags a model left right after it (`[/TOOL_CALLS]`, `</tool_call>`). */
function includeStrayClosers(content: string, span: TextCallSpan): TextCallSpan {
  let end = span.end;
  for (;;) {
    const rest = content.slice(end);
    const offset = rest.length - rest.trimStart().length;
    // A fence closed after the call that was never opened ends the answer: it goes with the call.
    const closer =
      strayClosers.find((tag) => rest.startsWith(tag, offset)) ??
      (/^\s*```\s*$/.test(rest) ? '```' : undefined);
    if (closer === undefined) return end === span.end ? span : { ...span, end };
    end += offset + closer.length;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
    if (span.replacement !== undefined) pieces.push(span.replacement);
    cursor = span.end;
  }
  pieces.push(content.slice(cursor));
  return pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .join('\n\n');
}
