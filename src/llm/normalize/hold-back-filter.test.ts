import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractTextToolCalls } from '../tool-calls/text-tool-calls/extract-text-tool-calls.js';
import { HoldBackFilter } from './hold-back-filter.js';

const tools = ['get_weather', 'search'];

function run(pieces: readonly string[], toolNames: readonly string[] = tools) {
  const filter = new HoldBackFilter({ toolNames });
  const pushed = pieces.map((piece) => filter.push(piece));
  const flushed = filter.flush();
  return { filter, pushed, released: pushed.join('') + flushed, flushed };
}

function splitEvery(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

const callContents = [
  'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>',
  'Checking [TOOL_CALLS]search[ARGS]{"q": "x"}',
  '[TOOL_CALLS] [{"name": "search", "arguments": {"q": "x"}}]',
  'Sure<|python_tag|>{"name": "search", "parameters": {"q": "x"}}',
  '<|python_start|>{"name": "search", "parameters": {"q": "x"}}<|python_end|>',
  'Writing.\n<function=search><parameter=q>x</parameter></function>',
  '  {"name": "get_weather", "arguments": {"city": "Oslo"}}',
  'Okay.\n{"name": "search", "arguments": {"q": "x"}}\n',
  'Calling:\n```json\n{"name": "search", "arguments": {"q": "x"}}\n```\nDone.',
  '{"name": "get_weather", "arguments": {"city": "Os',
  // A marker inside a fenced block that is not a call: the block is released only up to the marker.
  'Example:\n```json\n{"a": 1}\n<tool_call>{"name": "search", "arguments": {"q": "x"}}</tool_call>\n```',
];

const textContents = [
  'The weather in Oslo is mild today.',
  'Use a < b and a [link](http://x) here.',
  '{"city": "Oslo", "temperature": 4}',
  '{ this is a brace in prose }',
  'Example:\n```json\n{"name": "get_weather", "description": "Gets weather"}\n```\nThat is the schema.',
  'Code:\n```python\nx = {"name": "search", "arguments": {}}\nprint(x)\n```\nEnd.',
  'A list:\n[1, 2, 3]\nand done',
  '```\nplain fenced text\n```',
  'Call {"name": "search", "arguments": {}} inline is prose.',
  'Ends with a partial marker <tool',
  'Ends with backticks ``',
];

describe('HoldBackFilter', () => {
  it.each(callContents)('never releases call markup: %j', (content) => {
    const expected = extractTextToolCalls(content, tools);
    expect(expected.calls.length).toBeGreaterThan(0);
    for (const size of [1, 2, 3, 7, content.length]) {
      const { filter, released } = run(splitEvery(content, size));
      expect(filter.toolCallStarted).toBe(true);
      expect(released + filter.heldText).toBe(content);
      expect(extractTextToolCalls(released, tools).calls).toEqual([]);
      expect(released.trim()).toBe(content.slice(0, released.length).trim());
      expect(expected.content.startsWith(released.trim())).toBe(true);
    }
  });

  it.each(textContents)('releases text that is not a call, in order: %j', (content) => {
    for (const size of [1, 2, 5, content.length]) {
      const { filter, released } = run(splitEvery(content, size));
      expect(filter.toolCallStarted).toBe(false);
      expect(released).toBe(content);
      expect(filter.heldText).toBe('');
    }
  });

  it('releases prose at once and holds only a possible marker start', () => {
    const filter = new HoldBackFilter({ toolNames: tools });
    expect(filter.push('Hello <to')).toBe('Hello ');
    expect(filter.heldText).toBe('<to');
    expect(filter.push('ol')).toBe('');
    expect(filter.push('s> are')).toBe('<tools> are');
    expect(filter.push(' here [TOOL')).toBe(' here ');
    expect(filter.push('_CALLS]search')).toBe('');
    expect(filter.toolCallStarted).toBe(true);
    expect(filter.push('[ARGS]{}')).toBe('');
    expect(filter.flush()).toBe('');
    expect(filter.heldText).toBe('[TOOL_CALLS]search[ARGS]{}');
  });

  it('releases ordinary JSON as soon as its first key rules out a call', () => {
    const filter = new HoldBackFilter({ toolNames: tools });
    expect(filter.push('{"na')).toBe('');
    expect(filter.push('me": "get_weather", "arg')).toBe('');
    const other = new HoldBackFilter({ toolNames: tools });
    expect(other.push('{"')).toBe('');
    expect(other.push('ci')).toBe('{"ci');
  });

  it('streams a code block of another language without waiting for its end', () => {
    const filter = new HoldBackFilter({ toolNames: tools });
    expect(filter.push('```python\n')).toBe('```python\n');
    expect(filter.push('{"name": "search"}\n')).toBe('{"name": "search"}\n');
    expect(filter.push('``')).toBe('');
    expect(filter.push('`\nafter')).toBe('```\nafter');
  });

  it('keeps a call that names an unknown tool as text when unmarked', () => {
    const content = '{"name": "delete_all", "arguments": {}}';
    expect(run(splitEvery(content, 4)).released).toBe(content);
  });

  const alphabet = fc.constantFrom(
    'a',
    ' ',
    '\n',
    '{',
    '}',
    '[',
    ']',
    '"',
    "'",
    ':',
    ',',
    '`',
    '<',
    '>',
    '|',
    '=',
    'name',
    'search',
    'arguments',
    '"name"',
    '"search"',
    '```',
    '```json\n',
    '<tool',
    '_call>',
    '[TOOL',
    '_CALLS]',
    '<|python',
    '_tag|>',
    '<function',
  );
  const contents = fc.array(alphabet, { maxLength: 30 }).map((parts) => parts.join(''));
  const splits = (text: string) =>
    fc.uniqueArray(fc.integer({ min: 0, max: text.length }), { maxLength: 8 }).map((cuts) => {
      const sorted = [0, ...cuts.sort((left, right) => left - right), text.length];
      return sorted.slice(1).map((end, index) => text.slice(sorted[index], end));
    });

  it('loses nothing and decides the same for any split', () => {
    fc.assert(
      fc.property(
        contents.chain((text) => fc.tuple(fc.constant(text), splits(text))),
        ([text, pieces]) => {
          const whole = run([text]);
          const split = run(pieces);
          expect(split.released + split.filter.heldText).toBe(text);
          expect(split.released).toBe(whole.released);
          expect(split.filter.toolCallStarted).toBe(whole.filter.toolCallStarted);
          if (!split.filter.toolCallStarted) expect(split.filter.heldText).toBe('');
        },
      ),
    );
  });

  it('releases everything, in order, when no marker is present', () => {
    const markerFree = fc
      .string()
      .filter((text) => !/<tool_call>|\[TOOL_CALLS\]|<\|python_(tag|start)\|>|<function=/.test(text));
    fc.assert(
      fc.property(
        markerFree.chain((text) => fc.tuple(fc.constant(text), splits(text))),
        ([text, pieces]) => {
          const { released, filter } = run(pieces, []);
          expect(released).toBe(text);
          expect(filter.toolCallStarted).toBe(false);
        },
      ),
    );
  });

  it('agrees with extractTextToolCalls on whether there is a call', () => {
    fc.assert(
      fc.property(contents, (text) => {
        const { filter, released } = run([text]);
        const extracted = extractTextToolCalls(text, tools);
        if (extracted.calls.length > 0) expect(filter.toolCallStarted).toBe(true);
        expect(extractTextToolCalls(released, tools).calls).toEqual([]);
      }),
    );
  });
});
