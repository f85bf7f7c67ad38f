import { describe, expect, it } from 'vitest';
import { SpineError } from '../core/spine-error.js';
import type { StreamEvent } from '../core/types.js';
import { ScriptedModel } from './scripted-model.js';

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('ScriptedModel', () => {
  it('streams an answer as events ending in one done, and records the request', async () => {
    const model = new ScriptedModel([
      { reasoning: 'hmm', text: 'hi', toolCalls: [{ name: 'look', arguments: { at: 'x' } }] },
    ]);
    const messages = [{ role: 'user' as const, content: 'hello' }];
    const events = await collect(model.stream({ messages }));
    expect(events.map((event) => event.type)).toEqual([
      'reasoning-delta',
      'text-delta',
      'tool-call',
      'usage',
      'done',
    ]);
    const done = events.at(-1);
    if (done?.type !== 'done') throw new Error('no done');
    expect(done.response.message).toEqual({
      role: 'assistant',
      content: 'hi',
      tool_calls: [{ id: 'call_0_0', type: 'function', function: { name: 'look', arguments: '{"at":"x"}' } }],
    });
    messages.push({ role: 'user', content: 'changed later' });
    expect(model.requests[0]?.messages).toHaveLength(1);
    expect(model.remaining).toBe(0);
  });

  it('throws scripted errors, and a SpineError when the script runs out', async () => {
    const model = new ScriptedModel([{ error: new SpineError({ code: 'LLM_TIMEOUT', message: 'slow' }) }]);
    await expect(model.respond({ messages: [] })).rejects.toMatchObject({ code: 'LLM_TIMEOUT' });
    await expect(model.respond({ messages: [] })).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE' });
  });

  it('hangs until the request is aborted', async () => {
    const model = new ScriptedModel([{ hang: true }]);
    const controller = new AbortController();
    const pending = model.respond({ messages: [], signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'LLM_ABORTED' });
  });
});
