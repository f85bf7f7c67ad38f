import { describe, expect, it } from 'vitest';
import { createEventLog, createGate, createTestTools } from '../../test/engine/engine-test-kit.js';
import { SpineError } from '../core/spine-error.js';
import type { ChatMessage } from '../core/types.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { createEngine } from './engine.js';
import { summarizeToolResult } from './engine-events.js';

describe('engine: the loop', () => {
  it('runs tool call → result → answer, backfilling the exact messages', async () => {
    const llm = new ScriptedModel([
      {
        toolCalls: [{ id: 'call_1', name: 'math_add', arguments: { a: 2, b: 3 } }],
        messageFields: { reasoning_content: 'add them' },
      },
      { text: 'The sum is 5.' },
    ]);
    const engine = createEngine({ llm, tools: createTestTools(), systemPrompt: 'You add.' });
    const result = await engine.run({ input: 'What is 2+3?' });
    expect(result).toMatchObject({
      success: true,
      phase: 'WaitingUser',
      assistantText: 'The sum is 5.',
      turns: 2,
    });
    expect(result.error).toBeUndefined();
    expect(result.messages).toEqual([
      { role: 'system', content: 'You add.' },
      { role: 'user', content: 'What is 2+3?' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'add them',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'math_add', arguments: '{"a":2,"b":3}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify({ ok: true, data: 5 }) },
      { role: 'assistant', content: 'The sum is 5.' },
    ]);
    expect(llm.requests[1]?.messages).toEqual(result.messages.slice(0, 4));
    expect(llm.requests[0]?.tools?.map((tool) => tool.function.name)).toEqual(['math_add', 'always_fails']);
  });

  it('ends Completed when the completion check says so', async () => {
    const llm = new ScriptedModel([{ text: 'all done' }]);
    const engine = createEngine({
      llm,
      tools: createTestTools(),
      isComplete: (state) => state.assistantText === 'all done',
    });
    expect(await engine.run({ input: 'go' })).toMatchObject({
      success: true,
      phase: 'Completed',
      assistantText: 'all done',
    });
  });

  it('runs parallel calls concurrently and backfills them in call order', async () => {
    const slowGate = createGate();
    const started: string[] = [];
    const finished: string[] = [];
    const tool = (name: string, wait?: Promise<void>) =>
      defineTool({
        name,
        description: '',
        parameters: { type: 'object' },
        execute: async () => {
          started.push(name);
          if (wait) await wait;
          else slowGate.open();
          finished.push(name);
          return name;
        },
      });
    const llm = new ScriptedModel([
      {
        toolCalls: [
          { id: 'a', name: 'slow' },
          { id: 'b', name: 'fast' },
        ],
      },
      { text: 'ok' },
    ]);
    const engine = createEngine({
      llm,
      tools: createTestTools([tool('slow', slowGate.promise), tool('fast')]),
      parallelTools: true,
    });
    const result = await engine.run({ input: 'go' });
    expect(started).toEqual(['slow', 'fast']);
    expect(finished).toEqual(['fast', 'slow']);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toEqual([
      { role: 'tool', tool_call_id: 'a', content: '{"ok":true,"data":"slow"}' },
      { role: 'tool', tool_call_id: 'b', content: '{"ok":true,"data":"fast"}' },
    ]);
  });

  it('stops WaitingUser with ENGINE_LOOP_DETECTED after the same failing call three times', async () => {
    const failing = { toolCalls: [{ name: 'always_fails', arguments: { path: 'x.md' } }] };
    const llm = new ScriptedModel([failing, failing, failing, { text: 'never reached' }]);
    const engine = createEngine({ llm, tools: createTestTools() });
    const result = await engine.run({ input: 'read x.md' });
    expect(result).toMatchObject({
      success: false,
      phase: 'WaitingUser',
      turns: 3,
      error: { code: 'ENGINE_LOOP_DETECTED' },
    });
    expect(llm.requests).toHaveLength(3);
  });

  it('does not count failing calls with different arguments as a loop', async () => {
    const llm = new ScriptedModel([
      { toolCalls: [{ name: 'always_fails', arguments: { path: 'a' } }] },
      { toolCalls: [{ name: 'always_fails', arguments: { path: 'b' } }] },
      { toolCalls: [{ name: 'always_fails', arguments: { path: 'c' } }] },
      { text: 'gave up' },
    ]);
    const result = await createEngine({ llm, tools: createTestTools() }).run({ input: 'go' });
    expect(result).toMatchObject({ success: true, phase: 'WaitingUser', assistantText: 'gave up' });
  });

  it('stops at maxTurns with ENGINE_MAX_TURNS, and continue() gets a fresh allowance', async () => {
    const llm = new ScriptedModel((_request, index) => ({
      toolCalls: [{ name: 'math_add', arguments: { a: index, b: 1 } }],
    }));
    const engine = createEngine({ llm, tools: createTestTools(), maxTurns: 3 });
    const first = await engine.start({ input: 'loop forever', runId: 'r1' });
    expect(first).toMatchObject({
      success: false,
      phase: 'WaitingUser',
      turns: 3,
      error: { code: 'ENGINE_MAX_TURNS' },
    });
    const lastToolMessage = first.messages.at(-1);
    expect(lastToolMessage).toMatchObject({ role: 'tool' });
    const second = await engine.continue('r1', 'keep going');
    expect(second).toMatchObject({ phase: 'WaitingUser', turns: 3, error: { code: 'ENGINE_MAX_TURNS' } });
    expect(llm.requests).toHaveLength(6);
    expect(llm.requests[3]?.messages.at(-1)).toEqual({ role: 'user', content: 'keep going' });
  });

  it('answers unknown tools, bad arguments, thrown errors and timeouts as tool messages and carries on', async () => {
    const tools = createTestTools([
      defineTool({
        name: 'explode',
        description: '',
        parameters: { type: 'object' },
        execute: () => {
          throw new Error('boom');
        },
      }),
      defineTool({
        name: 'hang',
        description: '',
        parameters: { type: 'object' },
        timeoutMs: 10,
        execute: () => new Promise(() => undefined),
      }),
    ]);
    const llm = new ScriptedModel([
      {
        toolCalls: [
          { id: 'u', name: 'no_such_tool' },
          { id: 's', name: 'math_add', arguments: { a: 'one' } },
          { id: 'e', name: 'explode' },
          { id: 't', name: 'hang' },
        ],
      },
      { text: 'reported' },
    ]);
    const result = await createEngine({ llm, tools }).run({ input: 'go' });
    expect(result.phase).toBe('WaitingUser');
    const codes = result.messages
      .filter((message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool')
      .map((message) => [message.tool_call_id, JSON.parse(message.content).error.code]);
    expect(codes).toEqual([
      ['u', 'E_UNKNOWN_TOOL'],
      ['s', 'E_SCHEMA_VALIDATION'],
      ['e', 'E_INTERNAL'],
      ['t', 'E_TIMEOUT'],
    ]);
  });

  it('fails with the model error code', async () => {
    const llm = new ScriptedModel([
      { error: new SpineError({ code: 'LLM_AUTH_FAILED', message: 'bad key' }) },
    ]);
    const result = await createEngine({ llm, tools: createTestTools() }).run({ input: 'go' });
    expect(result).toMatchObject({
      success: false,
      phase: 'Failed',
      error: { code: 'LLM_AUTH_FAILED', message: 'bad key' },
    });
  });

  it('never runs a tool call cut off by max_tokens', async () => {
    let ran = false;
    const tools = createTestTools([
      defineTool({
        name: 'write',
        description: '',
        parameters: { type: 'object' },
        execute: () => {
          ran = true;
        },
      }),
    ]);
    const llm = new ScriptedModel([
      {
        text: 'Writing now',
        finishReason: 'length',
        incompleteToolCalls: [{ id: 'w', name: 'write', rawArguments: '{"content":"half' }],
        messageFields: {
          tool_calls: [
            { id: 'w', type: 'function', function: { name: 'write', arguments: '{"content":"half' } },
          ],
        },
      },
    ]);
    const result = await createEngine({ llm, tools }).run({ input: 'write it' });
    expect(ran).toBe(false);
    expect(result).toMatchObject({
      phase: 'WaitingUser',
      success: false,
      error: { code: 'ENGINE_INCOMPLETE_TOOL_CALL' },
    });
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'Writing now' });
  });

  it('reports the run as events, in order, to onEvent and subscribers', async () => {
    const log = createEventLog();
    const llm = new ScriptedModel([
      {
        reasoning: 'thinking',
        toolCalls: [{ id: 'c', name: 'math_add', arguments: { a: 1, b: 1 } }],
        usage: { promptTokens: 50 },
      },
      { text: 'two', repairs: [{ kind: 'json-repair', detail: 'closed a brace' }] },
    ]);
    const engine = createEngine({ llm, tools: createTestTools(), onEvent: log.listener });
    const subscriber = createEventLog();
    const unsubscribe = engine.subscribe(subscriber.listener);
    await engine.run({ input: 'go' });
    unsubscribe();
    expect(log.types()).toEqual([
      'run-start',
      'turn-start',
      'model-request',
      'reasoning-delta',
      'model-response',
      'tool-start',
      'tool-end',
      'turn-start',
      'model-request',
      'text-delta',
      'repair',
      'model-response',
      'run-end',
    ]);
    expect(subscriber.types()).toEqual(log.types());
    expect(log.events).toContainEqual(
      expect.objectContaining({ type: 'tool-start', name: 'math.add', args: { a: 1, b: 1 }, turnId: 'C01' }),
    );
    expect(log.events).toContainEqual(expect.objectContaining({ type: 'tool-end', ok: true, summary: '2' }));
    expect(log.events).toContainEqual(
      expect.objectContaining({
        type: 'model-response',
        usage: expect.objectContaining({ promptTokens: 50 }),
      }),
    );
    await engine.run({ input: 'again' }).catch(() => undefined);
    expect(subscriber.events.filter((event) => event.type === 'run-end')).toHaveLength(1);
  });

  it('rejects continue() on an unknown run and start() with a run id in use', async () => {
    const llm = new ScriptedModel([{ text: 'hi' }]);
    const engine = createEngine({ llm, tools: createTestTools() });
    await expect(engine.continue('nope', 'hello')).rejects.toMatchObject({ code: 'ENGINE_UNKNOWN_RUN' });
    await engine.start({ input: 'hi', runId: 'same' });
    await expect(engine.start({ input: 'hi', runId: 'same' })).rejects.toMatchObject({
      code: 'ENGINE_RUN_BUSY',
    });
    expect(engine.getMessages('same')).toHaveLength(2);
  });
});

describe('summarizeToolResult', () => {
  it('names scalar fields, sizes long text and lists, and leaves hashes out', () => {
    const summary = summarizeToolResult({
      ok: true,
      path: '@project/package.json',
      bytes: 1529,
      sha256: 'ab'.repeat(32),
      truncated: false,
      content: '{\n  "name": "spine"\n}\n',
      entries: ['a', 'b', 'c'],
    });
    expect(summary).toBe(
      'path=@project/package.json bytes=1529 truncated=false content=(22 chars) entries=[3 items]',
    );
  });

  it('gives a failure as its code and message, cut to the limit', () => {
    const summary = summarizeToolResult(
      { ok: false, error: { code: 'ENOENT', message: `no such file: ${'x'.repeat(200)}` } },
      40,
    );
    expect(summary).toHaveLength(40);
    expect(summary.startsWith('ENOENT: no such file: ')).toBe(true);
  });
});
