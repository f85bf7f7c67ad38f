import type { RE2JS } from 're2js';
import { lazyModule } from '../../core/lazy-module.js';
import { createByteFinder } from './byte-finder.js';
import { fsError } from './fs-failure.js';

const re2js = lazyModule<typeof import('re2js')>('re2js');

export interface SearchHit {
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface MatcherOptions {
  query: string;
  regex: boolean;
  ignoreCase: boolean;
  before: number;
  after: number;
  lineChars: number;
}

/** Finds matching lines in a file's bytes; `onHit` returns false to stop. One hit per line, as grep does. */
export type LineMatcher = (content: Buffer, onHit: (hit: SearchHit) => boolean) => boolean;

/** A literal, case-sensitive query is searched in the raw bytes; only lines around hits are decoded. */
export function createLineMatcher(options: MatcherOptions): LineMatcher {
  if (!options.regex && !options.ignoreCase) return createByteMatcher(options);
  if (!options.regex) {
    // A literal cannot backtrack: V8's engine is safe here, and many times faster than a linear one.
    const literal = new RegExp(options.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gimu');
    return createTextMatcher((text, from) => {
      literal.lastIndex = from;
      return literal.exec(text)?.index;
    }, options);
  }
  return createTextMatcher(compileLinearPattern(options), options);
}

/**
 * A model's regular expression runs on RE2 (through re2js), whose matching time is linear in the text: a
 * backtracking engine can be frozen for minutes by a 29-byte file and a pattern like `(a+)+$`, and no timeout
 * or Ctrl+C can interrupt a regular expression that V8 is running. RE2 has no lookaround and no
 * backreferences; such a pattern is refused with a clear error.
 */
function compileLinearPattern(options: MatcherOptions): (text: string, from: number) => number | undefined {
  let pattern: RE2JS;
  try {
    const { RE2JS: Re2 } = re2js();
    pattern = Re2.compile(options.query, Re2.MULTILINE | (options.ignoreCase ? Re2.CASE_INSENSITIVE : 0));
  } catch (error) {
    throw fsError(
      'E_SCHEMA_VALIDATION',
      `invalid regular expression (RE2 syntax: no lookaround, no backreferences): ${(error as Error).message}`,
      { query: options.query },
    );
  }
  let matcher: ReturnType<RE2JS['matcher']> | undefined;
  let matcherText: string | undefined;
  return (text, from) => {
    if (matcherText !== text) {
      matcher = pattern.matcher(text);
      matcherText = text;
    }
    return matcher!.find(from) ? matcher!.start() : undefined;
  };
}

function createByteMatcher(options: MatcherOptions): LineMatcher {
  const find = createByteFinder(Buffer.from(options.query, 'utf8'));
  return (content, onHit) => {
    let at = find(content, 0);
    if (at === -1) return true;
    const counter = createLineCounter((from) => content.indexOf(10, from));
    const lines = bufferLines(content);
    while (at !== -1) {
      const lineStart = content.lastIndexOf(10, at) + 1;
      const newline = content.indexOf(10, at);
      const lineEnd = newline === -1 ? content.length : newline;
      const prefix = content.toString('utf8', lineStart, at).length;
      const hit = buildHit(lines, counter(lineStart), lineStart, lineEnd, prefix, options);
      if (!onHit(hit)) return false;
      if (newline === -1) break;
      at = find(content, newline + 1);
    }
    return true;
  };
}

function createTextMatcher(
  findFrom: (text: string, from: number) => number | undefined,
  options: MatcherOptions,
): LineMatcher {
  return (content, onHit) => {
    const text = content.toString('utf8');
    const counter = createLineCounter((from) => text.indexOf('\n', from));
    for (let index = findFrom(text, 0); index !== undefined; ) {
      const lineStart = text.lastIndexOf('\n', index - 1) + 1;
      const newline = text.indexOf('\n', index);
      const lineEnd = newline === -1 ? text.length : newline;
      const hit = buildHit(
        stringLines(text),
        counter(lineStart),
        lineStart,
        lineEnd,
        index - lineStart,
        options,
      );
      if (!onHit(hit)) return false;
      if (newline === -1) break;
      index = findFrom(text, newline + 1);
    }
    return true;
  };
}

/** Line numbers for increasing offsets, counting newlines only once. */
function createLineCounter(findNewline: (from: number) => number): (offset: number) => number {
  let counted = 0;
  let line = 1;
  return (offset) => {
    for (let at = findNewline(counted); at !== -1 && at < offset; at = findNewline(at + 1)) {
      line += 1;
      counted = at + 1;
    }
    if (counted < offset) counted = offset;
    return line;
  };
}

interface Lines {
  length: number;
  next(from: number): number;
  previous(before: number): number;
  text(start: number, end: number): string;
}

function bufferLines(content: Buffer): Lines {
  return {
    length: content.length,
    next: (from) => content.indexOf(10, from),
    previous: (before) => (before < 0 ? -1 : content.lastIndexOf(10, before)),
    text: (start, end) => content.toString('utf8', start, end),
  };
}

function stringLines(content: string): Lines {
  return {
    length: content.length,
    next: (from) => content.indexOf('\n', from),
    previous: (before) => (before < 0 ? -1 : content.lastIndexOf('\n', before)),
    text: (start, end) => content.slice(start, end),
  };
}

function buildHit(
  lines: Lines,
  line: number,
  start: number,
  end: number,
  prefix: number,
  options: MatcherOptions,
) {
  const hit: SearchHit = {
    line,
    column: prefix + 1,
    text: clipLine(lines.text(start, end), prefix, options.lineChars),
  };
  if (options.before > 0) {
    const before: string[] = [];
    let lineEnd = start - 1;
    while (before.length < options.before && lineEnd >= 0) {
      const lineStart = lines.previous(lineEnd - 1) + 1;
      before.unshift(clipLine(lines.text(lineStart, lineEnd), 0, options.lineChars));
      lineEnd = lineStart - 1;
    }
    hit.before = before;
  }
  if (options.after > 0) {
    const after: string[] = [];
    let lineStart = end + 1;
    while (after.length < options.after && lineStart < lines.length) {
      const newline = lines.next(lineStart);
      const lineEnd = newline === -1 ? lines.length : newline;
      after.push(clipLine(lines.text(lineStart, lineEnd), 0, options.lineChars));
      lineStart = lineEnd + 1;
    }
    hit.after = after;
  }
  return hit;
}

function clipLine(text: string, column: number, limit: number): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (line.length <= limit) return line;
  const start = Math.max(0, Math.min(column - Math.floor(limit / 4), line.length - limit));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + limit)}…`;
}
