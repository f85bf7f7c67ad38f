import { TextBuffer } from '../stream/text-buffer.js';

const openTag = '<think>';
const closeTag = '</think>';
/**
 * Reasoning blocks a model may open its answer with: `<think>` (DeepSeek R1, Qwen 3, most others) and Mistral's
 * `[THINK]…[/THINK]` (Magistral; llama.cpp common/chat.cpp, the magistral parser). Only `</think>` is watched
 * for in text, for templates that open the block themselves.
 */
const blockTags: ReadonlyArray<readonly [string, string]> = [
  [openTag, closeTag],
  ['[THINK]', '[/THINK]'],
];

type Mode = 'start' | 'think' | 'after-think' | 'text-watch' | 'text';

export interface ThinkSplitterOptions {
  /** The prompt template already opened the block (it ends with `<think>\n`): content starts as reasoning. */
  startInReasoning?: boolean;
}

/** What one `push` or `flush` released. Reused between calls: read it before the next one. */
export interface ThinkSplitOutput {
  text: string;
  reasoning: string;
}

/**
 * Splits streamed content into reasoning and text (DECISIONS.md §4, RUNNER-QUIRKS §33-34): a `<think>…</think>`
 * block at the start (leading whitespace allowed) is reasoning, as is everything before a `</think>` when no
 * `<think>` came first (the template opened the block), and an unclosed block at the end. A `<think>` later in
 * prose is text. Tag fragments split across chunks (`<th` | `ink>`) are held back until decided.
 *
 * When the block was opened by the template, the text before `</think>` has already been released as text by
 * the time `</think>` shows it was reasoning; the totals (`text`, `reasoning`) are corrected, the released
 * deltas cannot be.
 */
export class ThinkSplitter {
  private readonly output: ThinkSplitOutput = { text: '', reasoning: '' };
  private mode: Mode;
  private held = '';
  private textTotal = new TextBuffer();
  private readonly reasoningTotal = new TextBuffer();
  private openedByTemplate = false;
  /** The closing tag of the block being read. */
  private blockClose = closeTag;
  private unclosedAtEnd = false;

  constructor(options: ThinkSplitterOptions = {}) {
    this.mode = options.startInReasoning ? 'think' : 'start';
  }

  /** All text so far (never think text). */
  get text(): string {
    return this.textTotal.toString();
  }

  /** All reasoning so far. */
  get reasoning(): string {
    return this.reasoningTotal.toString();
  }

  /** True when the content began inside a block the template opened (only `</think>` appeared). */
  get startedInsideBlock(): boolean {
    return this.openedByTemplate;
  }

  /** True after `flush` when a think block was still open at the end (all of it became reasoning). */
  get endedInsideBlock(): boolean {
    return this.unclosedAtEnd;
  }

  push(chunk: string): ThinkSplitOutput {
    const output = this.output;
    output.text = '';
    output.reasoning = '';
    if (this.mode === 'text') {
      this.emitText(chunk);
      return output;
    }
    const input = this.held === '' ? chunk : this.held + chunk;
    this.held = '';
    this.process(input);
    return output;
  }

  /** End of content: releases what was held back. */
  flush(): ThinkSplitOutput {
    const output = this.output;
    output.text = '';
    output.reasoning = '';
    const input = this.held;
    this.held = '';
    if (this.mode === 'think') {
      this.emitReasoning(input);
      this.unclosedAtEnd = true;
    } else this.emitText(input);
    this.mode = 'text';
    return output;
  }

  private process(input: string): void {
    let rest = input;
    while (rest !== '') {
      if (this.mode === 'start') rest = this.processStart(rest);
      else if (this.mode === 'think') rest = this.processThink(rest);
      else if (this.mode === 'after-think') rest = this.processAfterThink(rest);
      else if (this.mode === 'text-watch') rest = this.processTextWatch(rest);
      else {
        this.emitText(rest);
        rest = '';
      }
    }
  }

  private processStart(input: string): string {
    const start = skipWhitespace(input);
    if (start === input.length) return this.hold(input);
    for (const [open, close] of blockTags) {
      if (input.startsWith(open, start)) {
        this.mode = 'think';
        this.blockClose = close;
        return input.slice(start + open.length);
      }
    }
    if (blockTags.some(([open]) => open.startsWith(input.slice(start)))) return this.hold(input);
    this.mode = 'text-watch';
    return input;
  }

  private processThink(input: string): string {
    const close = this.blockClose;
    const closeIndex = input.indexOf(close);
    if (closeIndex !== -1) {
      this.emitReasoning(input.slice(0, closeIndex));
      this.mode = 'after-think';
      return input.slice(closeIndex + close.length);
    }
    const keep = partialTagLength(input, close);
    this.emitReasoning(input.slice(0, input.length - keep));
    return this.hold(input.slice(input.length - keep));
  }

  // The newlines a template puts after `</think>` are not part of the answer.
  private processAfterThink(input: string): string {
    const start = skipWhitespace(input);
    if (start === input.length) return '';
    this.mode = 'text';
    return input.slice(start);
  }

  private processTextWatch(input: string): string {
    if (input.indexOf('<') === -1) {
      this.emitText(input);
      return '';
    }
    const openIndex = input.indexOf(openTag);
    const closeIndex = input.indexOf(closeTag);
    if (openIndex !== -1 && (closeIndex === -1 || openIndex < closeIndex)) {
      this.mode = 'text';
      return input;
    }
    if (closeIndex !== -1) {
      this.openedByTemplate = true;
      this.reasoningTotal.append(this.textTotal.toString());
      this.textTotal = new TextBuffer();
      this.emitReasoning(input.slice(0, closeIndex));
      this.mode = 'after-think';
      return input.slice(closeIndex + closeTag.length);
    }
    const keep = Math.max(partialTagLength(input, closeTag), partialTagLength(input, openTag));
    this.emitText(input.slice(0, input.length - keep));
    return this.hold(input.slice(input.length - keep));
  }

  private hold(text: string): string {
    this.held = text;
    return '';
  }

  private emitText(text: string): void {
    if (text === '') return;
    this.output.text += text;
    this.textTotal.append(text);
  }

  private emitReasoning(text: string): void {
    if (text === '') return;
    this.output.reasoning += text;
    this.reasoningTotal.append(text);
  }
}

function skipWhitespace(text: string): number {
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 10 && code !== 13 && code !== 9) break;
    index++;
  }
  return index;
}

/** Length of the end of `text` that could be the start of `tag` (the tag's only `<` is its first character). */
function partialTagLength(text: string, tag: string): number {
  const index = text.lastIndexOf(tag[0]!);
  if (index === -1 || text.length - index >= tag.length) return 0;
  return tag.startsWith(text.slice(index)) ? text.length - index : 0;
}
