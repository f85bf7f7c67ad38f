import { describe, expect, it } from 'vitest';
import { createGate, createTestTools } from '../../test/engine/engine-test-kit.js';
import { ScriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { createEngine } from './engine.js';

describe('engine: cancellation', () => {
  it('stop() during a model call ends the run Failed with ENGINE_ABORTED', async () => {
    const llm = new ScriptedModel([{ hang: true }]);
    const engine = createEngine({
      llm,
      tools: createTestTools(),
      onEvent: (event) => {
        if (event.type === 'model-request') engine.stop(event.runId);
      },
    });
    const result = await engine.start({ input: 'go', runId: 'r' });
    expect(result).toMatchObject({ success: false, phase: 'Failed', error: { code: 'ENGINE_ABORTED' } });
    expect(engine.stop('r')).toBe(false);
  });

  it('an aborted signal ends the call at once even when the client ignores the signal', async () => {
    const never = new Promise<void>(() => undefined);
    const llm = new ScriptedModel([{ gate: never, answer: { text: 'too late' } }]);
    const controller = new AbortController();
    const engine = createEngine({
      llm,
      tools: createTestTools(),
      onEvent: (event) => {
        if (event.type === 'model-request') controller.abort();
      },
    });
    const result = await engine.run({ input: 'go', signal: controller.signal });
    expect(result).toMatchObject({ phase: 'Failed', error: { code: 'ENGINE_ABORTED' } });
  });

  it('a running tool finishes and is backfilled, later calls are not run, then the run stops', async () => {
    const gate = createGate();
    const written: string[] = [];
    let sawAbort = false;
    const tools = createTestTools([
      defineTool<{ path: string }>({
        name: 'write',
        description: '',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
        execute: async ({ path }, context) => {
          await gate.promise;
          sawAbort = context.signal.aborted;
          written.push(path);
          return { ok: true, path };
        },
      }),
    ]);
    const llm = new ScriptedModel([
      {
        toolCalls: [
          { id: 'w1', name: 'write', arguments: { path: 'a' } },
          { id: 'w2', name: 'write', arguments: { path: 'b' } },
        ],
      },
      { text: 'never asked' },
    ]);
    const engine = createEngine({
      llm,
      tools,
      onEvent: (event) => {
        if (event.type === 'tool-start' && event.toolCallId === 'w1') {
          engine.stop(event.runId);
          gate.open();
        }
      },
    });
    const result = await engine.start({ input: 'write', runId: 'r' });
    expect(written).toEqual(['a']);
    expect(sawAbort).toBe(true);
    expect(result).toMatchObject({ phase: 'Failed', error: { code: 'ENGINE_ABORTED' }, turns: 1 });
    expect(llm.requests).toHaveLength(1);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => JSON.parse(message.content as string))).toEqual([
      { ok: true, path: 'a' },
      { ok: false, error: { code: 'ENGINE_ABORTED', message: expect.any(String) } },
    ]);
    // The run can be picked up again: every tool_call_id has its answer.
    const next = await engine.continue('r', 'carry on');
    expect(next).toMatchObject({ phase: 'WaitingUser', assistantText: 'never asked' });
  });

  it('parallel tools all finish before an aborted run stops', async () => {
    const gate = createGate();
    const finished: string[] = [];
    const tool = (name: string) =>
      defineTool({
        name,
        description: '',
        parameters: { type: 'object' },
        execute: async () => {
          await gate.promise;
          finished.push(name);
          return name;
        },
      });
    const llm = new ScriptedModel([{ toolCalls: [{ name: 'one' }, { name: 'two' }] }]);
    const controller = new AbortController();
    let starts = 0;
    const engine = createEngine({
      llm,
      tools: createTestTools([tool('one'), tool('two')]),
      parallelTools: true,
      onEvent: (event) => {
        if (event.type === 'tool-start' && ++starts === 2) {
          controller.abort();
          gate.open();
        }
      },
    });
    const result = await engine.run({ input: 'go', signal: controller.signal });
    expect(finished.sort()).toEqual(['one', 'two']);
    expect(result).toMatchObject({ phase: 'Failed', error: { code: 'ENGINE_ABORTED' } });
    expect(result.messages.filter((message) => message.role === 'tool')).toHaveLength(2);
  });
});
