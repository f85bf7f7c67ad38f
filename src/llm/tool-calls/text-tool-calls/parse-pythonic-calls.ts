import { createTextToolCall, type TextToolCallWire } from './text-tool-call-wire.js';

/**
 * Python-style calls as Llama 3.1 built-ins, Llama 4, LFM2 and Gemma write them: `f(a=1, b="x")`, a list
 * `[f(a=1), g()]`, or a built-in `brave_search.call(query="x")` (the `.call` is dropped). Values are Python
 * literals: strings in either quote, numbers, `True`/`False`/`None`, lists, dicts and tuples. Sources: vLLM
 * `tool_parsers/pythonic_tool_parser.py` and `llama4_pythonic_tool_parser.py`, llama.cpp `common/chat.cpp`
 * (`parse_llama_3_builtin_tools`, the LFM2 parser). Undefined when the text is not wholly such calls, so prose
 * that merely contains a parenthesis is never taken for a call. Linear in the text.
 */
export function parsePythonicCalls(text: string): TextToolCallWire[] | undefined {
  const reader = new PythonReader(text);
  reader.skipSpace();
  const bracketed = reader.take('[');
  const calls: TextToolCallWire[] = [];
  for (;;) {
    reader.skipSpace();
    if (bracketed && reader.take(']')) break;
    const call = reader.readCall();
    if (call === undefined) return undefined;
    calls.push(call);
    reader.skipSpace();
    if (reader.take(',') || reader.take(';')) continue;
    if (bracketed) {
      if (!reader.take(']')) return undefined;
      break;
    }
    if (reader.atEnd()) break;
    // Several calls may also stand on their own lines.
    if (!reader.followsNewline()) return undefined;
  }
  reader.skipSpace();
  return reader.atEnd() && calls.length > 0 ? calls : undefined;
}

const identifier = /[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*/y;
const number = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const literalWords: Record<string, unknown> = {
  True: true,
  False: false,
  None: null,
  true: true,
  false: false,
  null: null,
};

class PythonReader {
  private index = 0;
  private lastSpace = '';

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.index >= this.text.length;
  }

  take(token: string): boolean {
    if (!this.text.startsWith(token, this.index)) return false;
    this.index += token.length;
    return true;
  }

  skipSpace(): void {
    const start = this.index;
    while (this.index < this.text.length && /\s/.test(this.text[this.index]!)) this.index += 1;
    this.lastSpace = this.text.slice(start, this.index);
  }

  followsNewline(): boolean {
    return this.lastSpace.includes('\n');
  }

  readCall(): TextToolCallWire | undefined {
    let name = this.match(identifier);
    if (name === undefined) return undefined;
    if (name.endsWith('.call')) name = name.slice(0, -'.call'.length);
    this.skipSpace();
    if (!this.take('(')) return undefined;
    const args: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.take(')')) break;
      const key = this.match(identifier);
      if (key === undefined) return undefined;
      this.skipSpace();
      if (!this.take('=')) return undefined;
      this.skipSpace();
      const value = this.readValue(0);
      if (value === invalid) return undefined;
      args[key] = value;
      this.skipSpace();
      if (this.take(',')) continue;
      if (this.take(')')) break;
      return undefined;
    }
    return createTextToolCall(name, { arguments: args });
  }

  private readValue(depth: number): unknown {
    if (depth > 64) return invalid;
    const character = this.text[this.index];
    if (character === '"' || character === "'") return this.readString(character);
    if (character === '[' || character === '(') return this.readList(character === '[' ? ']' : ')', depth);
    if (character === '{') return this.readDict(depth);
    const numeric = this.match(number);
    if (numeric !== undefined) return Number(numeric);
    const word = this.match(identifier);
    if (word !== undefined && word in literalWords) return literalWords[word];
    return invalid;
  }

  private readString(quote: string): unknown {
    // Triple-quoted strings hold code (Llama's code_interpreter built-in).
    const triple = quote.repeat(3);
    if (this.text.startsWith(triple, this.index)) {
      const end = this.text.indexOf(triple, this.index + 3);
      if (end === -1) return invalid;
      const value = this.text.slice(this.index + 3, end);
      this.index = end + 3;
      return value;
    }
    let value = '';
    for (let at = this.index + 1; at < this.text.length; at += 1) {
      const character = this.text[at]!;
      if (character === quote) {
        this.index = at + 1;
        return value;
      }
      if (character === '\\' && at + 1 < this.text.length) {
        at += 1;
        const escaped = this.text[at]!;
        value += escapes[escaped] ?? escaped;
        continue;
      }
      value += character;
    }
    return invalid;
  }

  private readList(close: string, depth: number): unknown {
    this.index += 1;
    const items: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.take(close)) return items;
      const item = this.readValue(depth + 1);
      if (item === invalid) return invalid;
      items.push(item);
      this.skipSpace();
      if (this.take(',')) continue;
      if (this.take(close)) return items;
      return invalid;
    }
  }

  private readDict(depth: number): unknown {
    this.index += 1;
    const entries: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace();
      if (this.take('}')) return entries;
      const key = this.readValue(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number') return invalid;
      this.skipSpace();
      if (!this.take(':')) return invalid;
      this.skipSpace();
      const value = this.readValue(depth + 1);
      if (value === invalid) return invalid;
      entries[String(key)] = value;
      this.skipSpace();
      if (this.take(',')) continue;
      if (this.take('}')) return entries;
      return invalid;
    }
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.index;
    const found = pattern.exec(this.text);
    if (found === null) return undefined;
    this.index += found[0].length;
    return found[0];
  }
}

const invalid = Symbol('invalid');
const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };
