import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThinkSplitter, type ThinkSplitterOptions } from './think-splitter.js';

interface Split {
  text: string;
  reasoning: string;
  streamedText: string;
  streamedReasoning: string;
  startedInsideBlock: boolean;
  endedInsideBlock: boolean;
}

function split(chunks: string[], options?: ThinkSplitterOptions): Split {
  const splitter = new ThinkSplitter(options);
  let streamedText = '';
  let streamedReasoning = '';
  for (const chunk of [...chunks, null]) {
    const output = chunk === null ? splitter.flush() : splitter.push(chunk);
    streamedText += output.text;
    streamedReasoning += output.reasoning;
  }
  return {
    text: splitter.text,
    reasoning: splitter.reasoning,
    streamedText,
    streamedReasoning,
    startedInsideBlock: splitter.startedInsideBlock,
    endedInsideBlock: splitter.endedInsideBlock,
  };
}

describe('ThinkSplitter', () => {
  it('passes text without tags through unchanged, leading whitespace included', () => {
    expect(split(['  Hello', ' world'])).toMatchObject({
      text: '  Hello world',
      reasoning: '',
      streamedText: '  Hello world',
    });
  });

  it('takes a leading <think> block as reasoning and drops the newlines after it', () => {
    expect(split(['\n <think>plan</think>\n\nAnswer'])).toMatchObject({
      text: 'Answer',
      reasoning: 'plan',
      streamedText: 'Answer',
      streamedReasoning: 'plan',
    });
  });

  it('holds tag fragments split across chunks (<th | ink>, </thi | nk>)', () => {
    expect(split(['<th', 'ink>a', 'b</thi', 'nk>c'])).toMatchObject({
      text: 'c',
      reasoning: 'ab',
      streamedReasoning: 'ab',
    });
    expect(split(['<', 't', 'h', 'i', 'n', 'k', '>', 'x', '<', '/', 't', 'hink', '>', 'y'])).toMatchObject({
      text: 'y',
      reasoning: 'x',
    });
  });

  it('treats a <think> later in prose as text', () => {
    expect(split(['Use the ', '<think> tag; then </think>.'])).toMatchObject({
      text: 'Use the <think> tag; then </think>.',
      reasoning: '',
    });
  });

  it('reads content that begins inside a block the template opened (only </think> appears)', () => {
    const result = split(['I should', ' greet.</th', 'ink>\n\nHello!']);
    expect(result).toMatchObject({ text: 'Hello!', reasoning: 'I should greet.', startedInsideBlock: true });
    expect(split(['I should greet.</think>Hello!'])).toMatchObject({
      text: 'Hello!',
      reasoning: 'I should greet.',
    });
  });

  it('makes an unclosed block all reasoning at the end, holding nothing back', () => {
    expect(split(['<think>step one', ' and </th'])).toMatchObject({
      text: '',
      reasoning: 'step one and </th',
      streamedReasoning: 'step one and </th',
      endedInsideBlock: true,
    });
  });

  it('starts in reasoning when the template is known to open the block', () => {
    expect(split(['a</think>b'], { startInReasoning: true })).toMatchObject({ text: 'b', reasoning: 'a' });
  });

  it('releases a lone "<" or "<thi" at the end as text', () => {
    expect(split(['a <'])).toMatchObject({ text: 'a <', streamedText: 'a <' });
    expect(split(['  <thi'])).toMatchObject({ text: '  <thi', streamedText: '  <thi' });
    expect(split(['  '])).toMatchObject({ text: '  ' });
  });

  it('gives the same totals and the same streamed text for any chunking', () => {
    const samples = [
      ' <think>a<b</think>\nc<d',
      'plain < text </thin',
      'x</think>y',
      '<think>never closed <',
      '<thinking>not a tag</thinking>',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...samples),
        fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 6 }),
        (text, cuts) => {
          const points = cuts.filter((cut) => cut < text.length).sort((a, b) => a - b);
          const chunks = [...points, text.length].map((end, index) =>
            text.slice(index === 0 ? 0 : points[index - 1], end),
          );
          const whole = split([text]);
          const pieces = split(chunks);
          expect(pieces.text).toBe(whole.text);
          expect(pieces.reasoning).toBe(whole.reasoning);
          if (!whole.startedInsideBlock) {
            expect(pieces.streamedText).toBe(whole.text);
            expect(pieces.streamedReasoning).toBe(whole.reasoning);
          }
        },
      ),
    );
  });
});
