import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repairToolCall } from './repair-tool-call.js';

const canonical = (argumentsValue: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'call_1',
  type: 'function',
  function: { name: 'get_weather', arguments: argumentsValue },
  ...extra,
});

describe('repairToolCall', () => {
  it('passes a canonical call through with no repairs', () => {
    const result = repairToolCall(canonical('{"city":"Oslo"}'), 0);
    expect(result).toEqual({
      call: {
        id: 'call_1',
        name: 'get_weather',
        arguments: { city: 'Oslo' },
        rawArguments: '{"city":"Oslo"}',
      },
      repairs: [],
    });
  });

  const cases: Array<{ name: string; wire: unknown; arguments: Record<string, unknown>; kinds: string[] }> = [
    {
      name: 'missing id',
      wire: { type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
      arguments: { city: 'Oslo' },
      kinds: ['generated-id'],
    },
    {
      name: 'missing type (Ollama native: object arguments, no id, no type)',
      wire: { function: { name: 'get_weather', arguments: { city: 'Oslo' } } },
      arguments: { city: 'Oslo' },
      kinds: ['generated-id', 'missing-type'],
    },
    {
      name: 'flat {name, arguments}',
      wire: { id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      arguments: { city: 'Oslo' },
      kinds: ['nested-flat-call'],
    },
    {
      name: 'flat with parameters (Llama)',
      wire: { id: 'call_1', name: 'get_weather', parameters: { city: 'Oslo' } },
      arguments: { city: 'Oslo' },
      kinds: ['nested-flat-call', 'parameters-key'],
    },
    {
      name: 'nested parameters',
      wire: {
        id: 'call_1',
        type: 'function',
        function: { name: 'get_weather', parameters: '{"city":"Oslo"}' },
      },
      arguments: { city: 'Oslo' },
      kinds: ['parameters-key'],
    },
    {
      name: 'arguments as object',
      wire: canonical({ city: 'Oslo' }),
      arguments: { city: 'Oslo' },
      kinds: [],
    },
    { name: 'empty-string arguments', wire: canonical(''), arguments: {}, kinds: ['empty-arguments'] },
    { name: 'whitespace arguments', wire: canonical('  \n'), arguments: {}, kinds: ['empty-arguments'] },
    { name: 'null arguments', wire: canonical(null), arguments: {}, kinds: ['empty-arguments'] },
    {
      name: 'double-encoded',
      wire: canonical(JSON.stringify(JSON.stringify({ city: 'Oslo' }))),
      arguments: { city: 'Oslo' },
      kinds: ['double-encoded'],
    },
    {
      name: 'triple-encoded',
      wire: canonical(JSON.stringify(JSON.stringify(JSON.stringify({ city: 'Oslo' })))),
      arguments: { city: 'Oslo' },
      kinds: ['double-encoded'],
    },
    {
      name: 'trailing comma',
      wire: canonical('{"city":"Oslo",}'),
      arguments: { city: 'Oslo' },
      kinds: ['json-repair'],
    },
    {
      name: 'single quotes',
      wire: canonical("{'city': 'Oslo'}"),
      arguments: { city: 'Oslo' },
      kinds: ['json-repair'],
    },
    {
      name: 'unquoted keys',
      wire: canonical('{city: "Oslo"}'),
      arguments: { city: 'Oslo' },
      kinds: ['json-repair'],
    },
    {
      name: 'Python literals only',
      wire: canonical('{"metric": True, "cache": False, "region": None}'),
      arguments: { metric: true, cache: false, region: null },
      kinds: ['python-literals'],
    },
    {
      name: 'Python dict (quotes, literals, trailing comma)',
      wire: canonical("{'city': 'Oslo', 'metric': True,}"),
      arguments: { city: 'Oslo', metric: true },
      kinds: ['python-literals', 'json-repair'],
    },
    {
      name: 'Python words inside strings stay',
      wire: canonical("{'note': \"it's True\"}"),
      arguments: { note: "it's True" },
      kinds: ['json-repair'],
    },
    {
      name: 'code fence',
      wire: canonical('```json\n{"city":"Oslo"}\n```'),
      arguments: { city: 'Oslo' },
      kinds: ['code-fence'],
    },
    {
      name: 'truncated closing brackets',
      wire: canonical('{"city":"Oslo","options":{"days":[1,2'),
      arguments: { city: 'Oslo', options: { days: [1, 2] } },
      kinds: ['truncated-json'],
    },
    {
      name: 'Responses-API function_call item',
      wire: { type: 'function_call', call_id: 'fc_1', name: 'get_weather', arguments: '{}' },
      arguments: {},
      kinds: [],
    },
  ];

  it.each(cases)('repairs $name', ({ wire, arguments: expected, kinds }) => {
    const result = repairToolCall(wire, 0);
    expect(result.problem).toBeUndefined();
    expect(result.call?.name).toBe('get_weather');
    expect(result.call?.arguments).toEqual(expected);
    expect(result.repairs.map((repair) => repair.kind)).toEqual(kinds);
    for (const repair of result.repairs) {
      expect(repair.toolCallId).toBe(result.call?.id);
      expect(repair.detail.length).toBeGreaterThan(0);
    }
  });

  it('keeps the runner string as rawArguments and stringifies objects', () => {
    expect(repairToolCall(canonical("{'a': 1}"), 0).call?.rawArguments).toBe("{'a': 1}");
    expect(repairToolCall(canonical({ a: 1 }), 0).call?.rawArguments).toBe('{"a":1}');
  });

  it('generates stable ids from position and content', () => {
    const wire = { function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } };
    const first = repairToolCall(wire, 0).call!.id;
    expect(first).toMatch(/^call_[0-9a-f]{14}$/);
    expect(repairToolCall(structuredClone(wire), 0).call!.id).toBe(first);
    expect(repairToolCall(wire, 1).call!.id).not.toBe(first);
    expect(
      repairToolCall({ function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }, 0).call!.id,
    ).not.toBe(first);
    expect(repairToolCall(wire, 0, { responseKey: 'chatcmpl-2' }).call!.id).not.toBe(first);
  });

  const problems: Array<{ name: string; wire: unknown; code: string; reason: string }> = [
    { name: 'not an object', wire: 'get_weather', code: 'E_SCHEMA_VALIDATION', reason: 'malformed-call' },
    {
      name: 'no name',
      wire: { function: { arguments: '{}' } },
      code: 'E_UNKNOWN_TOOL',
      reason: 'missing-name',
    },
    {
      name: 'blank name',
      wire: canonical('{}', { function: { name: '  ' } }),
      code: 'E_UNKNOWN_TOOL',
      reason: 'missing-name',
    },
    {
      name: 'prose arguments',
      wire: canonical('{"city": "Oslo"} and more'),
      code: 'E_SCHEMA_VALIDATION',
      reason: 'invalid-arguments',
    },
    {
      name: 'array arguments',
      wire: canonical('[1, 2]'),
      code: 'E_SCHEMA_VALIDATION',
      reason: 'invalid-arguments',
    },
    {
      name: 'string arguments',
      wire: canonical('"Oslo"'),
      code: 'E_SCHEMA_VALIDATION',
      reason: 'invalid-arguments',
    },
    {
      name: 'number arguments',
      wire: canonical(42),
      code: 'E_SCHEMA_VALIDATION',
      reason: 'invalid-arguments',
    },
  ];

  it.each(problems)('reports $name as a problem', ({ wire, code, reason }) => {
    const result = repairToolCall(wire, 3, { fromText: true });
    expect(result.call).toBeUndefined();
    expect(result.problem).toMatchObject({ code, index: 3, fromText: true, details: { reason } });
    expect(result.problem?.message).toContain('tool call 3');
  });

  it('names the tool and keeps an id on argument problems', () => {
    const result = repairToolCall({ function: { name: 'get_weather', arguments: '[1' } }, 0);
    expect(result.problem).toMatchObject({ toolName: 'get_weather', fromText: false });
    expect(result.problem?.toolCallId).toMatch(/^call_/);
    expect(result.problem?.message).toContain('must be a JSON object');
  });

  it('never throws on arbitrary wire values and strings', () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (wire, text) => {
        repairToolCall(wire, 0);
        repairToolCall(canonical(text), 0);
      }),
    );
  });

  it('is the identity on valid JSON object arguments', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const result = repairToolCall(canonical(JSON.stringify(value)), 0);
        expect(result.repairs).toEqual([]);
        expect(result.call?.arguments).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
