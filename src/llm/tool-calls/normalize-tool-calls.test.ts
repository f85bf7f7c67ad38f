import { describe, expect, it } from 'vitest';
import { normalizeToolCalls } from './normalize-tool-calls.js';

describe('normalizeToolCalls', () => {
  it('parses complete calls and keeps the raw text', () => {
    const result = normalizeToolCalls([{ id: 'a', name: 'f', arguments: '{"x": 1}' }], 'tool_calls');
    expect(result).toEqual({
      toolCalls: [{ id: 'a', name: 'f', arguments: { x: 1 }, rawArguments: '{"x": 1}' }],
      incompleteToolCalls: [],
      repairs: [],
    });
  });

  it('reads empty or whitespace arguments as {} and says so (§8)', () => {
    const result = normalizeToolCalls([{ id: 'a', name: 'now', arguments: ' ' }], 'stop');
    expect(result.toolCalls).toEqual([{ id: 'a', name: 'now', arguments: {}, rawArguments: ' ' }]);
    expect(result.repairs).toEqual([expect.objectContaining({ kind: 'empty-arguments', toolCallId: 'a' })]);
  });

  it('accepts object arguments and stringifies them', () => {
    const result = normalizeToolCalls([{ id: 'a', name: 'f', arguments: { q: 'x' } }], 'stop');
    expect(result.toolCalls[0]).toMatchObject({ arguments: { q: 'x' }, rawArguments: '{"q":"x"}' });
  });

  it('makes calls whose arguments do not parse to an object incomplete, with their raw text', () => {
    const result = normalizeToolCalls(
      [
        { id: 'a', name: 'f', arguments: '{"city":"Os' },
        { id: 'b', name: 'g', arguments: '[1]' },
        { id: 'c', name: 'h', arguments: 'not json' },
      ],
      'length',
    );
    expect(result.toolCalls).toEqual([]);
    expect(result.incompleteToolCalls).toEqual([
      { id: 'a', name: 'f', rawArguments: '{"city":"Os' },
      { id: 'b', name: 'g', rawArguments: '[1]' },
      { id: 'c', name: 'h', rawArguments: 'not json' },
    ]);
  });

  it('keeps a call with parseable arguments runnable even when the finish reason is length', () => {
    expect(normalizeToolCalls([{ id: 'a', name: 'f', arguments: '{}' }], 'length').toolCalls).toHaveLength(1);
  });

  it('makes a call without a name incomplete', () => {
    expect(
      normalizeToolCalls([{ id: 'a', name: '', arguments: '{}' }], 'stop').incompleteToolCalls,
    ).toHaveLength(1);
  });

  it('generates stable, distinct ids for calls without one and records the repair', () => {
    const raw = [
      { id: undefined, name: 'f', arguments: '{}' },
      { id: undefined, name: 'f', arguments: '{}' },
    ];
    const first = normalizeToolCalls(raw, 'tool_calls');
    const second = normalizeToolCalls(raw, 'tool_calls');
    const ids = first.toolCalls.map((call) => call.id);
    expect(ids).toEqual(second.toolCalls.map((call) => call.id));
    expect(new Set(ids).size).toBe(2);
    expect(ids[0]).toMatch(/^call_/);
    expect(first.repairs.map((repair) => [repair.kind, repair.toolCallId])).toEqual([
      ['generated-id', ids[0]],
      ['generated-id', ids[1]],
    ]);
  });
});

describe('normalizeToolCalls with the wire call object', () => {
  it('reads a flat call, `parameters` and a missing type from the wire, recording each fix (§28)', () => {
    const flat = { id: 'a', name: 'write', parameters: { path: 'x' } };
    const untyped = { id: 'b', function: { name: 'read', arguments: '{"path":"y"}' } };
    const result = normalizeToolCalls(
      [
        { id: 'a', name: 'write', arguments: undefined, wire: flat },
        { id: 'b', name: 'read', arguments: '{"path":"y"}', wire: untyped },
      ],
      'tool_calls',
    );
    expect(result.toolCalls.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['a', 'write', { path: 'x' }],
      ['b', 'read', { path: 'y' }],
    ]);
    expect(result.repairs.map((repair) => [repair.kind, repair.toolCallId])).toEqual([
      ['nested-flat-call', 'a'],
      ['parameters-key', 'a'],
      ['missing-type', 'b'],
    ]);
  });

  it('records nothing for a canonical wire call', () => {
    const wire = { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } };
    const result = normalizeToolCalls([{ id: 'a', name: 'f', arguments: '{}', wire }], 'tool_calls');
    expect(result.repairs).toEqual([]);
    expect(result.toolCalls).toHaveLength(1);
  });
});
