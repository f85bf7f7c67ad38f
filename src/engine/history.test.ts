import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../core/types.js';
import { MessageHistory } from './history.js';

const system: ChatMessage = { role: 'system', content: 'rules' };
const task: ChatMessage = { role: 'user', content: 'the task' };
const text = (role: 'user' | 'assistant', size: number): ChatMessage => ({ role, content: 'x'.repeat(size) });
const toolGroup = (id: string, results: number, size: number): ChatMessage[] => [
  {
    role: 'assistant',
    content: null,
    tool_calls: Array.from({ length: results }, (_, index) => ({
      id: `${id}_${index}`,
      type: 'function' as const,
      function: { name: 'fs_read', arguments: '{}' },
    })),
  },
  ...Array.from({ length: results }, (_, index) => ({
    role: 'tool' as const,
    tool_call_id: `${id}_${index}`,
    content: 'y'.repeat(size),
  })),
];

describe('MessageHistory', () => {
  it('sends everything while it fits', () => {
    const history = new MessageHistory([system, task, text('assistant', 40)], { contextLength: 10_000 });
    const window = history.window();
    expect(window.messages).toHaveLength(3);
    expect(window.dropped).toBe(0);
  });

  it('drops the oldest messages first, keeping system, the task and the newest message', () => {
    const messages = [system, task, text('assistant', 400), text('user', 400), text('assistant', 400)];
    const history = new MessageHistory(messages, { contextLength: 200, answerTokens: 0 });
    const window = history.window();
    expect(window.messages).toEqual([system, task, messages[4]]);
    expect(window.dropped).toBe(2);
  });

  it('drops an assistant tool_calls message together with all its tool messages', () => {
    const group = toolGroup('a', 2, 400);
    const history = new MessageHistory([system, task, ...group, text('assistant', 20)], {
      contextLength: 200,
      answerTokens: 0,
    });
    expect(history.window().messages).toEqual([system, task, { role: 'assistant', content: 'x'.repeat(20) }]);
  });

  it('trims to maxMessages', () => {
    const history = new MessageHistory(
      [system, task, text('assistant', 1), text('user', 1), text('assistant', 1)],
      { maxMessages: 3 },
    );
    expect(history.window().messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
  });

  it('keeps the newest group even when nothing else fits', () => {
    const group = toolGroup('a', 1, 4000);
    const history = new MessageHistory([system, task, ...group], { contextLength: 10, answerTokens: 0 });
    expect(history.window().messages).toHaveLength(4);
  });

  it('calibrates its estimate from reported prompt tokens', () => {
    const history = new MessageHistory([system, task, text('assistant', 4000)], { contextLength: 100_000 });
    const window = history.window();
    history.calibrate(window.rawTokens * 2, window.rawTokens);
    expect(history.estimateTokens()).toBe(window.rawTokens * 2);
    history.calibrate(window.rawTokens, window.rawTokens);
    expect(history.ratio).toBeGreaterThan(1);
    expect(history.ratio).toBeLessThan(2);
  });

  it('trims harder after an overflow, using the runner numbers when given', () => {
    const messages = [
      system,
      task,
      ...Array.from({ length: 20 }, (_, index) => text(index % 2 ? 'user' : 'assistant', 400)),
    ];
    const history = new MessageHistory(messages);
    const sent = history.window();
    expect(sent.dropped).toBe(0);
    const dropped = history.trimAfterOverflow(
      { contextLength: 1000, promptTokens: sent.rawTokens },
      sent.rawTokens,
    );
    expect(dropped).toBeGreaterThan(0);
    expect(history.estimateTokens()).toBeLessThanOrEqual(1000);
    const blind = new MessageHistory(messages);
    const before = blind.estimateTokens();
    blind.trimAfterOverflow({}, blind.window().rawTokens);
    expect(blind.estimateTokens()).toBeLessThanOrEqual(before * 0.75);
  });
});

const messageArbitrary: fc.Arbitrary<ChatMessage[]> = fc.oneof(
  fc
    .record({ role: fc.constantFrom('user' as const, 'assistant' as const), size: fc.nat(600) })
    .map(({ role, size }) => [text(role, size)]),
  fc
    .record({ results: fc.integer({ min: 1, max: 3 }), size: fc.nat(600), id: fc.uuid() })
    .map(({ results, size, id }) => toolGroup(id, results, size)),
);

const conversationArbitrary = fc.record({
  body: fc.array(messageArbitrary, { maxLength: 30 }).map((groups) => groups.flat()),
  contextLength: fc.option(fc.integer({ min: 20, max: 3000 }), { nil: undefined }),
  maxMessages: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  steps: fc.integer({ min: 1, max: 4 }),
});

describe('MessageHistory trimming invariants', () => {
  it('keeps order, pins, tool pairs, the newest group, and the budget when possible', () => {
    fc.assert(
      fc.property(conversationArbitrary, ({ body, contextLength, maxMessages, steps }) => {
        const all = [system, task, ...body];
        const history = new MessageHistory([], { contextLength, answerTokens: 0, maxMessages });
        // Appending in several steps, with a window after each, is how the engine drives it.
        const chunk = Math.ceil(all.length / steps);
        let window = history.window();
        for (let start = 0; start < all.length; start += chunk) {
          history.append(...all.slice(start, start + chunk));
          window = history.window();
        }
        const sent = window.messages;
        const positions = sent.map((message) => all.indexOf(message));
        expect(
          positions.every((position, index) => index === 0 || position > (positions[index - 1] ?? -1)),
        ).toBe(true);
        expect(sent[0]).toBe(system);
        expect(sent[1]).toBe(task);
        expect(sent.at(-1)).toBe(all.at(-1));
        const answered = new Set<string>();
        for (const message of sent) {
          if (message.role === 'assistant')
            for (const call of message.tool_calls ?? []) answered.add(call.id);
          if (message.role === 'tool') expect(answered.has(message.tool_call_id)).toBe(true);
        }
        for (const message of sent) {
          if (message.role !== 'assistant' || !message.tool_calls) continue;
          for (const call of message.tool_calls) {
            expect(sent.some((other) => other.role === 'tool' && other.tool_call_id === call.id)).toBe(true);
          }
        }
        const newestGroupSize = all.length - lastGroupStart(all);
        const floor = 2 + newestGroupSize;
        if (maxMessages !== undefined && sent.length > maxMessages) expect(sent.length).toBe(floor);
        if (contextLength !== undefined && window.estimatedTokens > contextLength)
          expect(sent.length).toBe(floor);
      }),
      { numRuns: 300 },
    );
  });
});

function lastGroupStart(messages: ChatMessage[]): number {
  let index = messages.length - 1;
  while (index > 0 && messages[index]?.role === 'tool') index -= 1;
  return Math.max(index, 2);
}
