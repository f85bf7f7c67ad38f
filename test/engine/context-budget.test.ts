import { expect, test } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolHost } from '../../src/tools/tool-host.js';

// A 1,024-token slot and tool definitions that alone fill it: the run says so, with the figures, and sends nothing.
test('a request that cannot fit the context is refused before sending, naming the figures', async () => {
  const wordy = defineTool({
    name: 'wordy',
    description: 'x '.repeat(2500),
    parameters: { type: 'object', properties: {} },
    execute: () => ({ ok: true }),
  });
  const model = new ScriptedModel([{ text: 'never sent' }]);
  const engine = createEngine({
    llm: model,
    tools: createToolHost([wordy]),
    history: { contextLength: 1024 },
    requestDefaults: { maxTokens: 256 },
  });
  const result = await engine.run({ input: 'Hello' });
  expect(model.requests).toHaveLength(0);
  expect(result.error).toMatchObject({
    code: 'LLM_CONTEXT_OVERFLOW',
    details: { sent: false, contextLength: 1024, budget: 768 },
  });
  expect(result.error?.message).toMatch(
    /about \d+ prompt tokens \(\d+ of them tool definitions\) against 768 available/,
  );
});

test('a request that fits is sent as before', async () => {
  const model = new ScriptedModel([{ text: 'Hi.' }]);
  const engine = createEngine({ llm: model, tools: createToolHost([]), history: { contextLength: 1024 } });
  const result = await engine.run({ input: 'Hello' });
  expect(model.requests).toHaveLength(1);
  expect(result.assistantText).toBe('Hi.');
});
