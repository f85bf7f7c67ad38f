import { findJsonValueEnd } from '../tool-calls/repair/find-json-value-end.js';
import {
  classifyCallPrefix,
  isKnownToolCallJson,
} from '../tool-calls/text-tool-calls/classify-call-prefix.js';
import { callFenceLanguages } from '../tool-calls/text-tool-calls/find-json-calls.js';
import { strayClosers, toolCallMarkers } from '../tool-calls/text-tool-calls/find-marked-calls.js';
import { parsePythonicCalls } from '../tool-calls/text-tool-calls/parse-pythonic-calls.js';

export interface HoldBackFilterOptions {
  /** Names of the offered tools: unmarked JSON only counts as a call when it names one. */
  toolNames: readonly string[];
}

// text: ordinary prose; code: inside a fenced block that is not a call; json / fence: an undecided candidate
// at the start of the held text; tool-call: a call began, everything from it on is collected.
type Mode = 'text' | 'code' | 'json' | 'fence' | 'tool-call';
interface Step {
  release: number;
  mode: Mode;
  wait?: boolean;
}

const fence = '```';
const feedSize = 2048;
// Functionary v3.2 writes `>>>name` before each call; held like a marker, released when no call follows.
const holdMarkers = [...toolCallMarkers, '>>>'];
const prefixMarkers = [...holdMarkers, fence];
const longestMarker = Math.max(...prefixMarkers.map((marker) => marker.length));
// The characters a call can start with: a marker's or a fence's first, or `{` / `[` opening a line. Any other
// character is released without a look at the markers (most of an answer's text).
const callStartCodes = new Set([...prefixMarkers, '{', '['].map((start) => start.charCodeAt(0)));

/**
 * Holds back streamed text that may still turn out to be a tool call written as text (DECISIONS.md §5): a
 * marker (`<tool_call>`, `[TOOL_CALLS]`, `<|python_tag|>`, `<|python_start|>`, `<function=`) or the start of
 * one, a fenced block that may hold a JSON call, or `{`/`[` opening a line (the content's first line
 * included). What cannot be a call is released in order; once a call has started nothing more is released
 * and the rest is collected for `extractTextToolCalls`. Invariant: all released text plus `heldText` equals
 * all pushed text. Decisions follow `extractTextToolCalls`, so markup it extracts is never released.
 * @example
 * const filter = new HoldBackFilter({ toolNames: ['get_weather'] });
 * for (const delta of deltas) emit(filter.push(delta));
 * emit(filter.flush()); // then, if filter.toolCallStarted, extract the calls from the whole content
 */
export class HoldBackFilter {
  readonly #toolNames: readonly string[];
  #held = '';
  #mode: Mode = 'text';
  // Whether the released text since the last newline is only spaces and tabs (a `{` there opens a line).
  #lineBlank = true;

  constructor(options: HoldBackFilterOptions) {
    this.#toolNames = options.toolNames;
  }

  /** True once a tool call was recognised: from then on `push` and `flush` release nothing. */
  get toolCallStarted(): boolean {
    return this.#mode === 'tool-call';
  }

  /** Text pushed but not released: still undecided, or the collected call and everything after it. */
  get heldText(): string {
    return this.#held;
  }

  /** Adds streamed text; returns the part that is safe to emit as a `text-delta` now (maybe empty). */
  push(text: string): string {
    // Most deltas are prose with nothing a call can start with: released as they come, without a scan.
    if (this.#mode === 'text' && this.#held === '' && !hasCallStart(text)) {
      this.#lineBlank = updateLineBlank(this.#lineBlank, text);
      return text;
    }
    if (text.length <= feedSize) {
      this.#held += text;
      return this.#drain(false);
    }
    // Fed in pieces: every decision slices the held text, so a 200 KB delta decided line by line would cost
    // its length times its lines; in pieces it costs what the same text streamed in small deltas costs.
    let released = '';
    for (let offset = 0; offset < text.length; offset += feedSize) {
      this.#held += text.slice(offset, offset + feedSize);
      released += this.#drain(false);
    }
    return released;
  }

  /** The stream ended: returns what is still held unless it is a call (then `heldText` keeps it). */
  flush(): string {
    return this.#drain(true);
  }

  #drain(final: boolean): string {
    let released = '';
    while (this.#mode !== 'tool-call' && this.#held !== '') {
      const step = this.#decide(final);
      if (step.release > 0) {
        const whole = step.release === this.#held.length;
        const text = whole ? this.#held : this.#held.slice(0, step.release);
        this.#held = whole ? '' : this.#held.slice(step.release);
        this.#lineBlank = updateLineBlank(this.#lineBlank, text);
        released += text;
      }
      this.#mode = step.mode;
      if (step.wait) break;
    }
    return released;
  }

  #decide(final: boolean): Step {
    if (this.#mode === 'json') return this.#stopAtMarker(this.#decideJson(final));
    if (this.#mode === 'fence') return this.#stopAtMarker(this.#decideFence(final));
    return this.#scan(final, this.#mode === 'code');
  }

  // A marker counts wherever it stands (extractTextToolCalls reads markers before fences and bare JSON),
  // so a candidate found not to be a call is released only up to a marker inside it.
  #stopAtMarker(step: Step): Step {
    if (step.mode === 'tool-call' || step.release === 0) return step;
    // Only a marker that starts before the release point matters: look no further than it could reach.
    const window = this.#held.slice(0, step.release + longestMarker - 1);
    const markerAt = Math.min(...holdMarkers.map((marker) => indexOrInfinity(window, marker)));
    return markerAt < step.release ? { release: markerAt, mode: 'tool-call' } : step;
  }

  // Finds the first place a call may start; everything before it is released.
  #scan(final: boolean, inCode: boolean): Step {
    const held = this.#held;
    const mode = inCode ? 'code' : 'text';
    let lineBlank = this.#lineBlank;
    for (let index = 0; index < held.length; index++) {
      const code = held.charCodeAt(index);
      if (!callStartCodes.has(code)) {
        lineBlank = code === newlineCode ? true : lineBlank && (code === spaceCode || code === tabCode);
        continue;
      }
      if (holdMarkers.some((marker) => held.startsWith(marker, index))) {
        return { release: index, mode: 'tool-call' };
      }
      if (held.startsWith(fence, index)) {
        return inCode ? { release: index + fence.length, mode: 'text' } : { release: index, mode: 'fence' };
      }
      // Checked before `[`: a line may open with a `[TOOL_CALLS]` that is still arriving.
      if (!final && held.length - index < longestMarker && isMarkerPrefix(held.slice(index))) {
        return { release: index, mode, wait: true };
      }
      const character = held[index]!;
      if (!inCode && lineBlank && (character === '{' || character === '['))
        return { release: index, mode: 'json' };
      lineBlank = updateLineBlank(lineBlank, character);
    }
    return { release: held.length, mode, wait: true };
  }

  // The held text starts with `{` or `[` opening a line: a bare JSON call if it names an offered tool and
  // the line ends with it.
  #decideJson(final: boolean): Step {
    const held = this.#held;
    const reject: Step = { release: 1, mode: 'text' };
    const pythonic = this.#decidePythonic(final);
    if (pythonic !== undefined) return pythonic;
    if (classifyCallPrefix(held) === 'no') return reject;
    const end = findJsonValueEnd(held, 0);
    if (end === -1) {
      if (!final) return { release: 0, mode: 'json', wait: true };
      return this.#isCall(held) ? { release: 0, mode: 'tool-call' } : reject;
    }
    const after = end + (/^[ \t]*/.exec(held.slice(end))?.[0].length ?? 0);
    if (after === held.length && !final) return { release: 0, mode: 'json', wait: true };
    // A line end, a `;` before another call (Llama 3.x), or a closing tag whose opening was skipped.
    const lineEnds =
      after === held.length ||
      held[after] === '\n' ||
      held[after] === '\r' ||
      held[after] === ';' ||
      strayClosers.some((tag) => held.startsWith(tag, after));
    return lineEnds && this.#isCall(held.slice(0, end)) ? { release: 0, mode: 'tool-call' } : reject;
  }

  // The held text starts with a fence: a call only in a JSON-like block whose body is a call object.
  #decideFence(final: boolean): Step {
    const held = this.#held;
    const wait: Step = { release: 0, mode: 'fence', wait: true };
    const newline = held.indexOf('\n');
    if (newline === -1) return final ? { release: held.length, mode: 'text' } : wait;
    const intoCode: Step = { release: newline + 1, mode: 'code' };
    if (!callFenceLanguages.has(held.slice(fence.length, newline).trim().toLowerCase())) return intoCode;
    const bodyOffset = held.slice(newline + 1).search(/\S/);
    if (bodyOffset === -1) return final ? { release: held.length, mode: 'text' } : wait;
    const body = held.slice(newline + 1 + bodyOffset);
    if (!/^[[{]/.test(body)) {
      // Gemma 3: Python calls in a ```tool_code fence; decided when the fence closes.
      if (held.slice(fence.length, newline).trim().toLowerCase() !== 'tool_code') return intoCode;
      const closeAt = held.indexOf(fence, newline + 1);
      if (closeAt === -1) {
        if (!final) return wait;
        return this.#isPythonicCall(body.trim())
          ? { release: 0, mode: 'tool-call' }
          : { release: held.length, mode: 'text' };
      }
      return this.#isPythonicCall(held.slice(newline + 1, closeAt).trim())
        ? { release: 0, mode: 'tool-call' }
        : { release: closeAt + fence.length, mode: 'text' };
    }
    if (classifyCallPrefix(body) === 'no') return intoCode;
    const close = held.indexOf(fence, newline + 1);
    if (close === -1) {
      if (!final) return wait;
      return this.#isCall(body) ? { release: 0, mode: 'tool-call' } : { release: held.length, mode: 'text' };
    }
    return this.#isCall(held.slice(newline + 1, close))
      ? { release: 0, mode: 'tool-call' }
      : { release: close + fence.length, mode: 'text' };
  }

  // `[get_weather(city="Oslo")]` opening a line (Llama 3.2/4 pythonic): a call when the line is wholly calls to
  // offered tools. Undefined when the text does not open with the name of one.
  #decidePythonic(final: boolean): Step | undefined {
    const held = this.#held;
    const name = /^\[\s*([A-Za-z_][\w.-]*)/.exec(held)?.[1];
    if (name === undefined || !this.#toolNames.some((tool) => tool.startsWith(name))) return undefined;
    const newline = held.indexOf('\n');
    if (newline === -1 && !final) return { release: 0, mode: 'json', wait: true };
    const line = (newline === -1 ? held : held.slice(0, newline)).trim();
    return this.#isPythonicCall(line) ? { release: 0, mode: 'tool-call' } : { release: 1, mode: 'text' };
  }

  #isPythonicCall(text: string): boolean {
    const calls = parsePythonicCalls(text);
    return calls?.every((call) => this.#toolNames.includes(call.function.name)) === true;
  }

  #isCall(text: string): boolean {
    return isKnownToolCallJson(text, this.#toolNames);
  }
}

function indexOrInfinity(text: string, search: string): number {
  const index = text.indexOf(search);
  return index === -1 ? Number.POSITIVE_INFINITY : index;
}

function isMarkerPrefix(text: string): boolean {
  return prefixMarkers.some((marker) => text.length < marker.length && marker.startsWith(text));
}

function hasCallStart(text: string): boolean {
  for (let index = 0; index < text.length; index++)
    if (callStartCodes.has(text.charCodeAt(index))) return true;
  return false;
}

const newlineCode = 10;
const spaceCode = 32;
const tabCode = 9;

function updateLineBlank(lineBlank: boolean, text: string): boolean {
  let blank = lineBlank;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    blank = code === newlineCode ? true : blank && (code === spaceCode || code === tabCode);
  }
  return blank;
}
