import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { createModelClient } from '../../src/llm/model-client.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolHost } from '../../src/tools/tool-host.js';
import { finishChunk, textStream, toolCallChunk, usageChunk } from '../support/chat-wire.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

describe('engine through the HTTP client and a loopback runner', () => {
  it('tool call → result → answer, with the backfilled messages on the wire', async () => {
    runner.enqueue(
      {
        sse: [
          toolCallChunk(0, { id: 'call_a', name: 'fs_read', arguments: '{"path":' }),
          toolCallChunk(0, { arguments: '"notes.md"}' }),
          finishChunk('tool_calls'),
          usageChunk(40, 8),
        ],
        chunkSize: 7,
      },
      { sse: textStream(['The notes ', 'say hello.']) },
    );
    const read = defineTool<{ path: string }>({
      name: 'fs.read',
      description: 'Reads a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: ({ path }) => ({ ok: true, path, content: 'hello' }),
    });
    const deltas: string[] = [];
    const engine = createEngine({
      llm: createModelClient({ baseUrl: runner.baseUrl, model: 'fake-model', maxRetries: 0 }),
      tools: createToolHost([read]),
      onEvent: (event) => {
        if (event.type === 'text-delta') deltas.push(event.text);
      },
    });
    const result = await engine.run({ input: 'What do the notes say?' });
    expect(result).toMatchObject({
      phase: 'WaitingUser',
      success: true,
      assistantText: 'The notes say hello.',
      turns: 2,
    });
    expect(deltas.join('')).toBe('The notes say hello.');
    const second = runner.requests[1]?.body as { messages: Array<Record<string, unknown>> } | undefined;
    expect(second?.messages.slice(1)).toEqual([
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'fs_read', arguments: '{"path":"notes.md"}' } },
        ],
      }),
      {
        role: 'tool',
        tool_call_id: 'call_a',
        content: JSON.stringify({ ok: true, path: 'notes.md', content: 'hello' }),
      },
    ]);
    const first = runner.requests[0]?.body as { tools: Array<{ function: { name: string } }> } | undefined;
    expect(first?.tools.map((tool) => tool.function.name)).toEqual(['fs_read']);
  });

  it('trims and retries once when the runner reports a context overflow', async () => {
    runner.enqueue(
      {
        status: 400,
        body: {
          error: {
            code: 400,
            message:
              'request (9412 tokens) exceeds the available context size (8192 tokens), try increasing it',
            type: 'exceed_context_size_error',
            n_prompt_tokens: 9412,
            n_ctx: 8192,
          },
        },
      },
      { sse: textStream(['fits']) },
    );
    const messages = [
      { role: 'system' as const, content: 'rules' },
      { role: 'user' as const, content: 'the task' },
      ...Array.from({ length: 40 }, (_, index) => ({
        role: index % 2 === 0 ? ('assistant' as const) : ('user' as const),
        content: 'word '.repeat(200),
      })),
    ];
    const engine = createEngine({
      llm: createModelClient({ baseUrl: runner.baseUrl, model: 'fake-model', maxRetries: 0 }),
      tools: createToolHost([]),
      history: { answerTokens: 512 },
    });
    const result = await engine.run({ messages });
    expect(result).toMatchObject({ phase: 'WaitingUser', assistantText: 'fits' });
    const sent = runner.requests.map((request) => (request.body as { messages: unknown[] }).messages);
    expect(sent[0]).toHaveLength(messages.length);
    expect(sent[1]?.length).toBeLessThan(messages.length);
    expect(sent[1]?.slice(0, 2)).toEqual(messages.slice(0, 2));
  });

  it('an abort while the runner is slow to answer ends the run Failed with ENGINE_ABORTED', async () => {
    runner.enqueue({ sse: textStream(['late']), headersDelayMs: 5_000 });
    const controller = new AbortController();
    const engine = createEngine({
      llm: createModelClient({ baseUrl: runner.baseUrl, model: 'fake-model', maxRetries: 0 }),
      tools: createToolHost([]),
      onEvent: (event) => {
        if (event.type === 'model-request') setTimeout(() => controller.abort(), 20);
      },
    });
    const result = await engine.run({ input: 'hello', signal: controller.signal });
    expect(result).toMatchObject({ phase: 'Failed', success: false, error: { code: 'ENGINE_ABORTED' } });
  });
});
