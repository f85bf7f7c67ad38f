import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../core/types.js';
import { settleToolCalls } from './settle-tool-calls.js';

const tools: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
];

const base = { content: '', toolCalls: [], incompleteToolCalls: [], tools, hitTokenCap: false, turn: 1 };

describe('settleToolCalls: every call of an answer settled once', () => {
  it('a call the decoder could not parse is repaired, its fix recorded once, and it becomes runnable', () => {
    const settled = settleToolCalls({
      ...base,
      incompleteToolCalls: [{ id: 'a', name: 'get_weather', rawArguments: "{'city': 'Oslo',}" }],
      finishReason: 'tool_calls',
    });
    expect(settled.toolCalls).toEqual([expect.objectContaining({ id: 'a', arguments: { city: 'Oslo' } })]);
    expect(settled.incompleteToolCalls).toEqual([]);
    const kinds = settled.repairs.map((repair) => repair.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds).toEqual(['json-repair']);
    expect(settled.problems).toEqual([]);
  });

  it('a call cut off by the token limit stays incomplete, is never run, and is no problem to re-ask about', () => {
    const settled = settleToolCalls({
      ...base,
      incompleteToolCalls: [{ id: 'a', name: 'get_weather', rawArguments: '{"city": "Os' }],
      finishReason: 'length',
    });
    expect(settled.toolCalls).toEqual([]);
    expect(settled.incompleteToolCalls).toHaveLength(1);
    expect(settled.problems).toEqual([]);
  });

  it('a call naming a tool that was not offered is a problem, carried for the re-ask', () => {
    const settled = settleToolCalls({
      ...base,
      toolCalls: [
        { id: 'a', name: 'get_wether', arguments: { city: 'Oslo' }, rawArguments: '{"city":"Oslo"}' },
      ],
      finishReason: 'tool_calls',
    });
    expect(settled.problems).toEqual([
      expect.objectContaining({
        code: 'E_UNKNOWN_TOOL',
        toolName: 'get_wether',
        message: "unknown tool 'get_wether'; valid tools: get_weather",
      }),
    ]);
  });

  it('a call written in the text takes the same path: extracted, then coerced by the schema', () => {
    const settled = settleToolCalls({
      ...base,
      content:
        'Checking.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo", "days": "3"}}</tool_call>',
      finishReason: 'stop',
    });
    expect(settled.extracted).toBe(true);
    expect(settled.content).toBe('Checking.');
    expect(settled.finishReason).toBe('tool_calls');
    expect(settled.toolCalls).toEqual([
      expect.objectContaining({ name: 'get_weather', arguments: { city: 'Oslo', days: 3 } }),
    ]);
    expect(settled.repairs.map((repair) => repair.kind)).toEqual(expect.arrayContaining(['text-extracted']));
    expect(settled.repairs.some((repair) => repair.kind !== 'text-extracted')).toBe(true);
  });

  it('without tools, text is never read as calls', () => {
    const settled = settleToolCalls({
      ...base,
      tools: [],
      content: '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call>',
      finishReason: 'stop',
    });
    expect(settled.toolCalls).toEqual([]);
    expect(settled.extracted).toBe(false);
  });
});
