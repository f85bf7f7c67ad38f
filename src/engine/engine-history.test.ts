import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEventLog, createTestTools } from '../../test/engine/engine-test-kit.js';
import { SpineError } from '../core/spine-error.js';
import type { ChatMessage } from '../core/types.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { createEngine } from './engine.js';
import { readTurnRecords } from './turn-records.js';

const overflow = () =>
  new SpineError({ code: 'LLM_CONTEXT_OVERFLOW', message: 'request exceeds the available context size' });

const longConversation = (): ChatMessage[] => [
  { role: 'system', content: 'rules' },
  { role: 'user', content: 'the task' },
  ...Array.from(
    { length: 10 },
    (_, index): ChatMessage =>
      index % 2 === 0
        ? { role: 'assistant', content: 'a'.repeat(800) }
        : { role: 'user', content: 'u'.repeat(800) },
  ),
];

describe('engine: history', () => {
  it('trims and retries once after a context overflow', async () => {
    const log = createEventLog();
    const llm = new ScriptedModel([{ error: overflow() }, { text: 'fits now' }]);
    const engine = createEngine({ llm, tools: createTestTools(), onEvent: log.listener });
    const result = await engine.run({ messages: longConversation() });
    expect(result).toMatchObject({ phase: 'WaitingUser', assistantText: 'fits now', turns: 1 });
    const [first, second] = llm.requests;
    expect(second?.messages.length).toBeLessThan(first?.messages.length ?? 0);
    expect(second?.messages.slice(0, 2)).toEqual(longConversation().slice(0, 2));
    expect(second?.messages.at(-1)).toEqual(longConversation().at(-1));
    expect(log.events).toContainEqual(
      expect.objectContaining({ type: 'history-trimmed', reason: 'overflow' }),
    );
    expect(result.messages).toHaveLength(longConversation().length + 1);
  });

  it('fails with LLM_CONTEXT_OVERFLOW when the retry overflows too', async () => {
    const llm = new ScriptedModel([{ error: overflow() }, { error: overflow() }, { text: 'unused' }]);
    const result = await createEngine({ llm, tools: createTestTools() }).run({
      messages: longConversation(),
    });
    expect(result).toMatchObject({ phase: 'Failed', error: { code: 'LLM_CONTEXT_OVERFLOW' } });
    expect(llm.requests).toHaveLength(2);
  });

  it('trims to the configured context before sending', async () => {
    const log = createEventLog();
    const llm = new ScriptedModel([{ text: 'ok' }]);
    const engine = createEngine({
      llm,
      tools: createTestTools([]),
      history: { contextLength: 800, answerTokens: 100 },
      onEvent: log.listener,
    });
    await engine.run({ messages: longConversation() });
    expect(llm.requests[0]?.messages.length).toBeLessThan(longConversation().length);
    expect(log.events).toContainEqual(expect.objectContaining({ type: 'history-trimmed', reason: 'budget' }));
  });
});

describe('engine: turn records', () => {
  it('appends one EngineTurn per model call to turns.jsonl, messages exactly as sent', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'spine-turns-'));
    const llm = new ScriptedModel([
      { toolCalls: [{ id: 'c1', name: 'math_add', arguments: { a: 1, b: 2 } }] },
      { text: 'three' },
    ]);
    const engine = createEngine({ llm, tools: createTestTools(), runDir });
    await engine.start({ input: 'add', runId: 'r' });
    await engine.continue('r', 'thanks');
    const records = await readTurnRecords(join(runDir, 'turns.jsonl'));
    expect(records.map((record) => [record.id, record.phaseBefore, record.uiAfter?.phase])).toEqual([
      ['C01', 'Running', 'Running'],
      ['C02', 'Running', 'WaitingUser'],
      ['C03', 'WaitingUser', 'Failed'],
    ]);
    expect(records[0]?.request.messages).toEqual(llm.requests[0]?.messages);
    expect(records[0]?.request.tools).toEqual(llm.requests[0]?.tools);
    expect(records[1]?.request.messages).toEqual(llm.requests[1]?.messages);
    expect(records[0]?.toolRuns).toEqual([
      {
        toolCallId: 'c1',
        toolName: 'math.add',
        args: { a: 1, b: 2 },
        result: { ok: true, data: 3 },
        durationMs: expect.any(Number),
      },
    ]);
    expect(records[1]?.response?.assistant).toEqual({ role: 'assistant', content: 'three' });
    expect(records[2]?.error?.code).toBe('LLM_BAD_RESPONSE');
  });

  it('reads past a torn last line with a warning', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'spine-turns-'));
    const engine = createEngine({
      llm: new ScriptedModel([{ text: 'one' }]),
      tools: createTestTools(),
      runDir,
    });
    await engine.run({ input: 'hi' });
    const path = join(runDir, 'turns.jsonl');
    await writeFile(path, `${await readFile(path, 'utf8')}{"schemaVersion":1,"id":"C0`);
    const warnings: string[] = [];
    const records = await readTurnRecords(path, { onWarning: (message) => warnings.push(message) });
    expect(records.map((record) => record.id)).toEqual(['C01']);
    expect(warnings).toEqual([expect.stringContaining('torn last line')]);
  });
});
