import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repairToolCall } from '../repair/repair-tool-call.js';
import { extractTextToolCalls } from './extract-text-tool-calls.js';

const tools = ['get_weather', 'write_file', 'search'];

interface Case {
  name: string;
  content: string;
  /** The calls after `repairToolCall`: name and parsed arguments. */
  calls: Array<[string, Record<string, unknown>]>;
  rest: string;
}

const cases: Case[] = [
  {
    name: 'Hermes block after prose',
    content:
      'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>',
    calls: [['get_weather', { city: 'Oslo' }]],
    rest: 'Let me check.',
  },
  {
    name: 'two Hermes blocks back to back, text after',
    content:
      '<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call><tool_call>{"name":"search","arguments":{"q":"x"}}</tool_call>\nDone.',
    calls: [
      ['get_weather', { city: 'Oslo' }],
      ['search', { q: 'x' }],
    ],
    rest: 'Done.',
  },
  {
    name: 'Hermes, last block unclosed and truncated',
    content:
      '<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>\n<tool_call>{"name":"search","arguments":{"q":"y',
    calls: [
      ['get_weather', { city: 'Oslo' }],
      ['search', { q: 'y' }],
    ],
    rest: '',
  },
  {
    name: 'Hermes with braces inside strings',
    content:
      '<tool_call>{"name":"write_file","arguments":{"path":"a.js","content":"function f() { return \\"}\\"; }"}}</tool_call>',
    calls: [['write_file', { path: 'a.js', content: 'function f() { return "}"; }' }]],
    rest: '',
  },
  {
    name: 'Hermes with a Python dict',
    content: "<tool_call>{'name': 'get_weather', 'arguments': {'city': 'Oslo', 'metric': True,}}</tool_call>",
    calls: [['get_weather', { city: 'Oslo', metric: true }]],
    rest: '',
  },
  {
    name: 'Hermes naming an unknown tool (kept, for the re-ask)',
    content: '<tool_call>{"name":"get_wx","arguments":{}}</tool_call>',
    calls: [['get_wx', {}]],
    rest: '',
  },
  {
    name: 'Qwen3-Coder XML',
    content:
      'Writing it.\n<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\nline 1\nline 2\n</parameter>\n</function>\n</tool_call>',
    calls: [['write_file', { path: 'a.txt', content: 'line 1\nline 2' }]],
    rest: 'Writing it.',
  },
  {
    name: 'Qwen3-Coder XML, two functions, unclosed',
    content:
      '<tool_call><function=search><parameter=q>a</parameter></function><function=search><parameter=q>b',
    calls: [
      ['search', { q: 'a' }],
      ['search', { q: 'b' }],
    ],
    rest: '',
  },
  {
    name: 'Mistral [TOOL_CALLS]name[ARGS]',
    content: '[TOOL_CALLS]search[ARGS]{"q": "x"}',
    calls: [['search', { q: 'x' }]],
    rest: '',
  },
  {
    name: 'Mistral, several calls and a call id',
    content:
      '[TOOL_CALLS]search[ARGS]{"q": "x"}[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Oslo"}',
    calls: [
      ['search', { q: 'x' }],
      ['get_weather', { city: 'Oslo' }],
    ],
    rest: '',
  },
  {
    name: 'Mistral, old array shape',
    content:
      '[TOOL_CALLS] [{"name": "search", "arguments": {"q": "x"}}, {"name": "get_weather", "arguments": {"city": "Rome"}}]',
    calls: [
      ['search', { q: 'x' }],
      ['get_weather', { city: 'Rome' }],
    ],
    rest: '',
  },
  {
    name: 'Llama <|python_tag|> with parameters',
    content: '<|python_tag|>{"name": "search", "parameters": {"q": "x"}}<|eom_id|>',
    calls: [['search', { q: 'x' }]],
    rest: '',
  },
  {
    name: 'Llama <|python_tag|>, two calls separated by ;',
    content:
      '<|python_tag|>{"name": "search", "parameters": {"q": "x"}}; {"name": "search", "parameters": {"q": "y"}}',
    calls: [
      ['search', { q: 'x' }],
      ['search', { q: 'y' }],
    ],
    rest: '',
  },
  {
    name: 'Llama 4 <|python_start|>',
    content: 'Sure.<|python_start|>[{"name": "search", "parameters": {"q": "x"}}]<|python_end|>',
    calls: [['search', { q: 'x' }]],
    rest: 'Sure.',
  },
  {
    name: '<function=name>{json}</function>',
    content: 'Looking.\n<function=search>{"q": "x",}</function>',
    calls: [['search', { q: 'x' }]],
    rest: 'Looking.',
  },
  {
    name: 'bare JSON as the whole content',
    content: '{"name": "get_weather", "parameters": {"city": "Oslo"}}',
    calls: [['get_weather', { city: 'Oslo' }]],
    rest: '',
  },
  {
    name: 'bare JSON on its own line after prose',
    content: 'I\'ll look it up.\n  {"name": "get_weather", "arguments": {"city": "Oslo"}}\n',
    calls: [['get_weather', { city: 'Oslo' }]],
    rest: "I'll look it up.",
  },
  {
    name: 'bare JSON truncated at the end',
    content: '{"name": "get_weather", "arguments": {"city": "Os',
    calls: [['get_weather', { city: 'Os' }]],
    rest: '',
  },
  {
    name: 'bare JSON array of calls',
    content: '[{"name": "search", "arguments": {"q": "a"}}, {"name": "search", "arguments": {"q": "b"}}]',
    calls: [
      ['search', { q: 'a' }],
      ['search', { q: 'b' }],
    ],
    rest: '',
  },
  {
    name: 'fenced JSON call',
    content:
      'Calling:\n```json\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```\nThen I will answer.',
    calls: [['get_weather', { city: 'Oslo' }]],
    rest: 'Calling:\n\nThen I will answer.',
  },
  {
    name: 'fenced JSON with the nested function shape',
    content: '```\n{"type": "function", "function": {"name": "search", "arguments": {"q": "x"}}}\n```',
    calls: [['search', { q: 'x' }]],
    rest: '',
  },
];

const notCalls: Array<{ name: string; content: string }> = [
  { name: 'plain prose', content: 'The weather in Oslo is mild.' },
  {
    name: 'documentation block naming a tool',
    content: '```json\n{"name": "get_weather", "description": "Gets weather"}\n```',
  },
  {
    name: 'fenced JSON naming an unknown tool',
    content: '```json\n{"name": "delete_all", "arguments": {}}\n```',
  },
  {
    name: 'fenced call in a code language',
    content: '```python\n{"name": "search", "arguments": {"q": "x"}}\n```',
  },
  { name: 'bare JSON of another shape', content: '{"city": "Oslo", "temperature": 4}' },
  { name: 'bare JSON inside a sentence', content: 'Send {"name": "search", "arguments": {}} to the API.' },
  {
    name: 'prose mentioning a marker in backticks is not crashed on',
    content: 'Use `</tool_call>` to end a block.',
  },
];

describe('extractTextToolCalls', () => {
  it.each(cases)('extracts $name', ({ content, calls, rest }) => {
    const result = extractTextToolCalls(content, tools);
    const repaired = result.calls.map((wire, index) => repairToolCall(wire, index, { fromText: true }));
    expect(repaired.map((entry) => entry.problem)).toEqual(repaired.map(() => undefined));
    expect(repaired.map((entry) => [entry.call?.name, entry.call?.arguments])).toEqual(calls);
    expect(result.content).toBe(rest);
    expect(result.repairs).toHaveLength(calls.length);
    expect(result.repairs.every((repair) => repair.kind === 'text-extracted')).toBe(true);
  });

  it.each(notCalls)('leaves $name alone', ({ content }) => {
    const result = extractTextToolCalls(content, tools);
    expect({ ...result, unparsed: [] }).toEqual({
      content,
      calls: [],
      repairs: [],
      cutOff: [],
      unparsed: [],
    });
  });

  it('names the dialect and the fixes in the repair detail', () => {
    const result = extractTextToolCalls('<tool_call>{"name":"search","arguments":{"q":"x"', tools);
    expect(result.repairs[0]?.detail).toBe(
      'call 0 found in the text as hermes <tool_call> at offset 0; truncated block closed, truncated-json, unclosed <tool_call>',
    );
  });

  it('records the parameters alias for the repair step', () => {
    const { calls } = extractTextToolCalls(
      '<|python_tag|>{"name": "search", "parameters": {"q": "x"}}',
      tools,
    );
    expect(repairToolCall(calls[0], 0).repairs.map((repair) => repair.kind)).toEqual([
      'generated-id',
      'parameters-key',
    ]);
  });

  it('leaves an unreadable marked block naming no tool as text, with an unparsed-call-markup repair', () => {
    const content = 'Hm.\n<tool_call>not json at all</tool_call>';
    const result = extractTextToolCalls(content, tools);
    expect(result.content).toBe(content);
    expect(result.calls).toEqual([]);
    expect(result.unparsed).toEqual([expect.objectContaining({ kind: 'unparsed-call-markup' })]);
  });

  it('makes a malformed block that names an offered tool a call to it, so the re-ask can say what is wrong', () => {
    const result = extractTextToolCalls('<tool_call>get_weather: city Oslo</tool_call>', tools);
    expect(result.calls.map((call) => call.function.name)).toEqual(['get_weather']);
    expect(repairToolCall(result.calls[0], 0, { fromText: true }).problem).toBeDefined();
  });

  it('leaves Qwen3-Coder values as strings for schema coercion', () => {
    const { calls } = extractTextToolCalls(
      '<function=get_weather><parameter=days>3</parameter></function>',
      tools,
    );
    expect(calls).toEqual([
      { type: 'function', function: { name: 'get_weather', arguments: { days: '3' } } },
    ]);
  });

  it('never throws on arbitrary text, with or without markers', () => {
    const pieces = [
      '<tool_call>',
      '</tool_call>',
      '[TOOL_CALLS]',
      '[ARGS]',
      '<|python_tag|>',
      '<function=',
      '```json\n',
      '{',
      '}',
      '"name"',
      ':',
      '"search"',
      '\n',
    ];
    const text = fc
      .array(fc.oneof(fc.string(), fc.constantFrom(...pieces)), { maxLength: 12 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (content) => {
        const result = extractTextToolCalls(content, tools);
        expect(result.calls).toHaveLength(result.repairs.length);
        for (const [index, call] of result.calls.entries()) repairToolCall(call, index, { fromText: true });
      }),
    );
  });
});

describe('a pinned tool-call format', () => {
  const hermes = '<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>';
  const mistral = '[TOOL_CALLS]get_weather{"city":"Oslo"}';

  it('reads only its own family', () => {
    expect(extractTextToolCalls(hermes, ['get_weather'], 'hermes').calls).toHaveLength(1);
    expect(extractTextToolCalls(mistral, ['get_weather'], 'mistral').calls).toHaveLength(1);
    const other = extractTextToolCalls(hermes, ['get_weather'], 'mistral');
    expect(other).toMatchObject({ content: hermes, calls: [], unparsed: [] });
  });

  it('json reads fenced and bare JSON and no marked family', () => {
    expect(
      extractTextToolCalls('{"name":"get_weather","arguments":{"city":"Oslo"}}', ['get_weather'], 'json')
        .calls,
    ).toHaveLength(1);
    expect(extractTextToolCalls(mistral, ['get_weather'], 'json').calls).toEqual([]);
  });
});
