import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ToolSpec } from '../../core/types.js';
import { buildReaskMessages } from './reask.js';
import type { ToolCallProblem } from './repair/tool-call-problem.js';
import { validateToolCall } from './validate-tool-arguments.js';

const tools: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string' } },
        required: ['city'],
      },
    },
  },
  {
    type: 'function',
    function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  },
];

const assistant = (calls: Array<[string, string, string]>): AssistantMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: calls.map(([id, name, args]) => ({
    id,
    type: 'function',
    function: { name, arguments: args },
  })),
});

function problemFor(
  id: string,
  name: string,
  args: Record<string, unknown>,
  fromText = false,
): ToolCallProblem {
  const result = validateToolCall({ id, name, arguments: args }, tools, { fromText });
  if (result.ok) throw new Error('expected a problem');
  return result.problem;
}

function parseContent(content: unknown): {
  ok: boolean;
  error: { code: string; message: string; details: Record<string, unknown> };
} {
  return JSON.parse(String(content));
}

describe('buildReaskMessages', () => {
  it('answers one rejected structured call with a tool message holding a ToolResult error', () => {
    const message = assistant([['call_1', 'get_weather', '{"city": 7}']]);
    const messages = buildReaskMessages(message, [problemFor('call_1', 'get_weather', { city: 7 })], {
      tools,
    });
    expect(messages).toHaveLength(2);
    expect(messages[0]).toBe(message);
    expect(messages[1]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    const result = parseContent(messages[1]!.content);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'E_SCHEMA_VALIDATION',
        message:
          "Invalid arguments for tool 'get_weather': /city: must be string. Arguments for 'get_weather' must be a JSON object matching its schema; required properties: city; allowed properties: city, unit.",
        details: {
          reason: 'schema',
          tool: 'get_weather',
          errors: ['/city: must be string'],
          paths: ['/city'],
          required: ['city'],
          properties: ['city', 'unit'],
        },
      },
    });
  });

  it('lists the valid tools for an unknown tool', () => {
    const message = assistant([['call_1', 'get_wx', '{}']]);
    const [, reply] = buildReaskMessages(message, [problemFor('call_1', 'get_wx', {})], { tools });
    const result = parseContent(reply!.content);
    expect(result.error.code).toBe('E_UNKNOWN_TOOL');
    expect(result.error.message).toBe(
      "Unknown tool 'get_wx'; valid tools: get_weather, read_file. Call one of the valid tools: get_weather, read_file.",
    );
    expect(result.error.details.validTools).toEqual(['get_weather', 'read_file']);
  });

  it('asks for the whole message again when one of several calls is rejected', () => {
    const message = assistant([
      ['call_1', 'read_file', '{"path": "a"}'],
      ['call_2', 'get_weather', '{}'],
    ]);
    const messages = buildReaskMessages(message, [problemFor('call_2', 'get_weather', {})], { tools });
    expect(
      messages.map((entry) => [entry.role, 'tool_call_id' in entry ? entry.tool_call_id : undefined]),
    ).toEqual([
      ['assistant', undefined],
      ['tool', 'call_1'],
      ['tool', 'call_2'],
    ]);
    const skipped = parseContent(messages[1]!.content);
    expect(skipped.error.code).toBe('E_PRECONDITION_FAILED');
    expect(skipped.error.message).toContain('get_weather');
    expect(skipped.error.message).toContain('send the whole message again');
    const rejected = parseContent(messages[2]!.content);
    expect(rejected.error.code).toBe('E_SCHEMA_VALIDATION');
    expect(rejected.error.message).toContain("missing required property 'city'");
    expect(rejected.error.message).toContain('send the whole message again');
    expect(rejected.error.details.resend).toBe('whole-message');
  });

  it('answers a call that came as text with one user message', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: '<tool_call>{"name":"get_wx","arguments":{}}</tool_call>',
    };
    const problem = problemFor('call_x', 'get_wx', {}, true);
    const messages = buildReaskMessages(message, [problem], { tools });
    expect(messages).toHaveLength(2);
    expect(messages[0]).toBe(message);
    expect(messages[1]).toEqual({
      role: 'user',
      content: [
        'Your tool call could not be used:',
        "- Unknown tool 'get_wx'; valid tools: get_weather, read_file (E_UNKNOWN_TOOL). Call one of the valid tools: get_weather, read_file.",
        'Valid tools: get_weather, read_file.',
        'Nothing was run: make the call again, corrected.',
      ].join('\n'),
    });
  });

  it('puts several text problems in one user message and asks for the whole message', () => {
    const message: AssistantMessage = { role: 'assistant', content: 'two text calls' };
    const problems = [problemFor('a', 'get_weather', { city: 1 }, true), problemFor('b', 'nope', {}, true)];
    const messages = buildReaskMessages(message, problems, { tools });
    expect(messages).toHaveLength(2);
    const content = String(messages[1]!.content);
    expect(content).toContain('/city: must be string');
    expect(content).toContain("Unknown tool 'nope'");
    expect(content).toContain('send the whole message again');
  });

  it('never leaves a structured call unanswered, even when its problem has no matching id', () => {
    const message = assistant([['call_1', 'read_file', '{}']]);
    const stray: ToolCallProblem = {
      toolCallId: 'call_9',
      fromText: false,
      code: 'E_UNKNOWN_TOOL',
      message: 'tool call 1 has no function name',
      details: { reason: 'missing-name' },
    };
    const messages = buildReaskMessages(message, [stray], { tools });
    expect(messages.map((entry) => entry.role)).toEqual(['assistant', 'tool', 'user']);
    expect(parseContent(messages[1]!.content).error.code).toBe('E_PRECONDITION_FAILED');
    expect(String(messages[2]!.content)).toContain('Tool call 1 has no function name');
  });

  it('does not change its inputs', () => {
    const message = assistant([['call_1', 'get_weather', '{}']]);
    const problems = [problemFor('call_1', 'get_weather', {})];
    const before = JSON.stringify([message, problems]);
    buildReaskMessages(message, problems, { tools });
    expect(JSON.stringify([message, problems])).toBe(before);
  });
});
