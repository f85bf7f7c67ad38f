import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelRequest, ModelResponse, StreamEvent } from '../../core/types.js';
import { normalizeModelResponse } from './normalize-model-response.js';
import { ResponseStreamNormalizer } from './response-stream-normalizer.js';

const request: ModelRequest = {
  messages: [{ role: 'user', content: 'go' }],
  tools: [{ type: 'function', function: { name: 'search', parameters: { type: 'object' } } }],
};

function decoded(content: string): ModelResponse {
  return {
    content,
    toolCalls: [],
    incompleteToolCalls: [],
    reasoning: null,
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, latencyMs: 1 },
    finishReason: 'stop',
    model: 'm',
    repairs: [],
    message: { role: 'assistant', content },
    raw: null,
  };
}

/** Plays the content as text deltas cut at the given points, then `usage` and `done`. */
function play(content: string, cuts: number[]): StreamEvent[] {
  const normalizer = new ResponseStreamNormalizer(request);
  const events: StreamEvent[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((left, right) => left - right)) {
    if (cut > start)
      events.push(...normalizer.push([{ type: 'text-delta', text: content.slice(start, cut) }]));
    start = Math.max(start, cut);
  }
  if (start < content.length)
    events.push(...normalizer.push([{ type: 'text-delta', text: content.slice(start) }]));
  const response = decoded(content);
  events.push(
    ...normalizer.push([
      { type: 'usage', usage: response.usage },
      { type: 'done', response },
    ]),
  );
  return events;
}

const fragments = [
  'Let me look. ',
  ' ',
  '\n',
  '{ just prose }',
  '{"title": "x"}',
  '<tool_call>{"name": "search", "arguments": {"q": "a"}}</tool_call>',
  '[TOOL_CALLS]',
  '<tool_',
  '```json\n{"name": "search", "arguments": {}}\n```',
  '```python\nx = {}\n```',
  'Done.',
];

describe('ResponseStreamNormalizer', () => {
  it('for any content and any split: deltas equal the final content, and no call marker is shown', () => {
    const content = fc.array(fc.constantFrom(...fragments), { maxLength: 6 }).map((parts) => parts.join(''));
    const input = content.chain((text) =>
      fc.tuple(fc.constant(text), fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 })),
    );
    fc.assert(
      fc.property(input, ([text, cuts]) => {
        const events = play(text, cuts);
        const done = events.at(-1);
        if (done?.type !== 'done') throw new Error('no done');
        const shown = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
        expect(shown).toBe(done.response.content);
        const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
        expect(calls).toEqual(done.response.toolCalls);
        // Readable markup becomes calls and is never shown; only markup that held no call stays as text.
        const { toolCalls, incompleteToolCalls, repairs } = done.response;
        const unread = repairs.some((repair) => repair.kind === 'unparsed-call-markup');
        if (toolCalls.length + incompleteToolCalls.length > 0 && !unread)
          expect(shown).not.toMatch(/<tool_call>|\[TOOL_CALLS\]/);
        // The same calls as a non-streamed answer; the text only differs in blanks the stream showed first.
        const collected = normalizeModelResponse(decoded(text), request);
        expect(done.response.toolCalls).toEqual(collected.toolCalls);
        expect(done.response.content.trim()).toBe(collected.content.trim());
        expect(events.map((event) => event.type).slice(-2)).toEqual(['usage', 'done']);
      }),
      { numRuns: 300 },
    );
  });

  it('passes text straight through when no tools were offered', () => {
    const normalizer = new ResponseStreamNormalizer({ messages: [] });
    expect(normalizer.push([{ type: 'text-delta', text: '<tool_call> ' }])).toEqual([
      { type: 'text-delta', text: '<tool_call> ' },
    ]);
  });
});
