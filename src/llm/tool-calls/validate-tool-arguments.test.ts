import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../core/types.js';
import { validateToolArguments, validateToolCall } from './validate-tool-arguments.js';

const weather: ToolSpec = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer' },
      },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};

const writeTodo: ToolSpec = {
  type: 'function',
  function: {
    name: 'write_todo',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        path: { type: 'string' },
        task: { $ref: '#/$defs/Task' },
        tags: { type: 'array', items: { type: 'string' } },
        note: { type: 'string' },
        done: { type: 'boolean' },
        ratio: { type: ['number', 'null'] },
      },
      required: ['path'],
      $defs: {
        Task: {
          type: 'object',
          properties: { title: { type: 'string' }, priority: { type: 'integer' } },
          required: ['title'],
        },
      },
    },
  },
};

const call = (name: string, args: Record<string, unknown>) => ({ id: 'call_1', name, arguments: args });

describe('validateToolArguments', () => {
  it('accepts valid arguments with no repairs', () => {
    const args = { city: 'Oslo', unit: 'celsius' };
    expect(validateToolArguments(call('get_weather', args), weather)).toEqual({
      ok: true,
      arguments: args,
      repairs: [],
    });
  });

  it.each([
    { args: { city: 7, unit: 'celsius' }, errors: ['/city: must be string'] },
    { args: { unit: 'celsius' }, errors: ["missing required property 'city'"] },
    { args: { city: 'Oslo', unit: 'kelvin' }, errors: ['/unit: must be one of "celsius", "fahrenheit"'] },
    { args: { city: 'Oslo', unit: 'celsius', colour: 'red' }, errors: ["unknown property 'colour'"] },
    {
      args: { city: ['Oslo'] },
      errors: ["missing required property 'unit'", '/city: must be string'],
    },
  ])('names the bad property: $errors', ({ args, errors }) => {
    const result = validateToolArguments(call('get_weather', args), weather, { index: 2 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toMatchObject({
      toolCallId: 'call_1',
      toolName: 'get_weather',
      index: 2,
      fromText: false,
      code: 'E_SCHEMA_VALIDATION',
      details: { reason: 'schema', tool: 'get_weather', errors, required: ['city', 'unit'] },
    });
    expect(result.problem.message).toBe(`invalid arguments for tool 'get_weather': ${errors.join('; ')}`);
  });

  it('unwraps JSON strings where the schema declares objects and arrays (via $ref), leaving strings alone', () => {
    const args = {
      path: '{"looks":"like json"}',
      task: '{"title":"ship","priority":"2"}',
      tags: '["a","b"]',
      note: '[not parsed]',
    };
    const result = validateToolArguments(call('write_todo', args), writeTodo);
    expect(result).toMatchObject({
      ok: true,
      arguments: {
        path: '{"looks":"like json"}',
        task: { title: 'ship', priority: 2 },
        tags: ['a', 'b'],
        note: '[not parsed]',
      },
    });
    if (!result.ok) return;
    expect(result.repairs.map((repair) => [repair.kind, repair.detail.split(':')[0]])).toEqual([
      ['double-encoded', '/task'],
      ['coerced-type', '/task/priority'],
      ['double-encoded', '/tags'],
    ]);
    expect(result.repairs.every((repair) => repair.toolCallId === 'call_1')).toBe(true);
    expect(args.task).toBe('{"title":"ship","priority":"2"}');
  });

  it('converts Qwen3-Coder string parameters by schema type', () => {
    const result = validateToolArguments(
      call('write_todo', {
        path: 'a.txt',
        done: 'True',
        ratio: 'null',
        task: { title: 't', priority: '-3' },
      }),
      writeTodo,
    );
    expect(result).toMatchObject({
      ok: true,
      arguments: { path: 'a.txt', done: true, ratio: null, task: { title: 't', priority: -3 } },
    });
    const number = validateToolArguments(call('write_todo', { path: 'a', ratio: '0.25' }), writeTodo);
    expect(number).toMatchObject({ ok: true, arguments: { ratio: 0.25 } });
  });

  it('reports a value that cannot be converted', () => {
    const result = validateToolArguments(
      call('get_weather', { city: 'Oslo', unit: 'celsius', days: 'two' }),
      weather,
    );
    expect(result).toMatchObject({ ok: false, problem: { details: { errors: ['/days: must be integer'] } } });
  });

  it('keeps a __proto__ key as data', () => {
    const args = JSON.parse('{"path":"a","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const result = validateToolArguments(call('write_todo', args), writeTodo);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.hasOwn(result.arguments, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts any object when the tool has no schema or one that does not compile', () => {
    const open: ToolSpec = { type: 'function', function: { name: 'open' } };
    expect(validateToolArguments(call('open', { a: 1 }), open)).toEqual({
      ok: true,
      arguments: { a: 1 },
      repairs: [],
    });
    const broken: ToolSpec = {
      type: 'function',
      function: { name: 'broken', parameters: { type: 'object', required: 5 } },
    };
    expect(validateToolArguments(call('broken', { a: 1 }), broken).ok).toBe(true);
  });

  it('marks problems of text calls', () => {
    const result = validateToolArguments(call('get_weather', {}), weather, { fromText: true });
    expect(result).toMatchObject({ ok: false, problem: { fromText: true } });
  });
});

describe('validateToolCall', () => {
  it('rejects an unknown tool and lists the valid ones', () => {
    const result = validateToolCall(call('get_wx', {}), [weather, writeTodo]);
    expect(result).toEqual({
      ok: false,
      problem: {
        toolCallId: 'call_1',
        toolName: 'get_wx',
        fromText: false,
        code: 'E_UNKNOWN_TOOL',
        message: "unknown tool 'get_wx'; valid tools: get_weather, write_todo",
        details: { reason: 'unknown-tool', tool: 'get_wx', validTools: ['get_weather', 'write_todo'] },
      },
    });
  });

  it('validates against the named tool', () => {
    expect(
      validateToolCall(call('get_weather', { city: 'Oslo', unit: 'celsius' }), [writeTodo, weather]).ok,
    ).toBe(true);
  });
});
