import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../core/types.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

function accumulate(deltaBatches: unknown[][]): {
  calls: ReturnType<ToolCallAccumulator['toRawCalls']>;
  events: StreamEvent[];
} {
  const accumulator = new ToolCallAccumulator();
  const events: StreamEvent[] = [];
  for (const batch of deltaBatches) accumulator.add(batch, events);
  return { calls: accumulator.toRawCalls(), events };
}

const call = (index: number | undefined, fields: { id?: string | null; name?: string; args?: unknown }) => ({
  ...(index === undefined ? {} : { index }),
  ...(fields.id === undefined ? {} : { id: fields.id }),
  type: 'function',
  function: {
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.args === undefined ? {} : { arguments: fields.args }),
  },
});

describe('ToolCallAccumulator', () => {
  it('joins the canonical shape: id and name once, argument fragments by index (§1, §13)', () => {
    const { calls, events } = accumulate([
      [call(0, { id: 'call_a', name: 'get_wx', args: '' })],
      [call(0, { args: '{"ci' })],
      [call(0, { args: 'ty":"Oslo"}' })],
    ]);
    expect(calls).toEqual([{ id: 'call_a', name: 'get_wx', arguments: '{"city":"Oslo"}' }]);
    expect(events).toEqual([
      { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'get_wx', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"ci' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'ty":"Oslo"}' },
    ]);
  });

  it('accepts a first delta without id and takes a later id for the same index (§2)', () => {
    const { calls } = accumulate([
      [call(0, { name: 'read_file', args: '{"a":' })],
      [call(0, { id: 'late', args: '1}' })],
    ]);
    expect(calls).toEqual([{ id: 'late', name: 'read_file', arguments: '{"a":1}' }]);
  });

  it('keys by id when index is missing, and continues the only open call without either (§3)', () => {
    const { calls } = accumulate([
      [call(undefined, { id: 'x', name: 'f', args: '{"a"' })],
      [call(undefined, { id: 'y', name: 'g', args: '{}' })],
      [call(undefined, { id: 'x', args: ':1}' })],
    ]);
    expect(calls).toEqual([
      { id: 'x', name: 'f', arguments: '{"a":1}' },
      { id: 'y', name: 'g', arguments: '{}' },
    ]);
    const open = accumulate([
      [call(undefined, { name: 'f', args: '{"a"' })],
      [call(undefined, { args: ':2}' })],
    ]);
    expect(open.calls).toEqual([{ id: undefined, name: 'f', arguments: '{"a":2}' }]);
  });

  it('starts a new call when a different id arrives at an index in use (§4)', () => {
    const { calls } = accumulate([
      [call(0, { id: 'call_1', name: 'read', args: '{"path":"a.rs"}' })],
      [call(0, { id: 'call_2', name: 'read', args: '{"path":"b.rs"}' })],
    ]);
    expect(calls.map((entry) => [entry.id, entry.arguments])).toEqual([
      ['call_1', '{"path":"a.rs"}'],
      ['call_2', '{"path":"b.rs"}'],
    ]);
  });

  it('starts a new call when a keyless delta brings a new name after complete arguments (§4)', () => {
    const { calls } = accumulate([
      [call(0, { name: 'a', args: '{}' })],
      [call(0, { name: 'b', args: '{"x":1}' })],
    ]);
    expect(calls.map((entry) => entry.name)).toEqual(['a', 'b']);
  });

  it('merges entries by index value, within one chunk and interleaved across chunks (§5)', () => {
    const { calls } = accumulate([
      [
        call(0, { id: 'a', name: 'f', args: '{"a"' }),
        call(0, { args: ':1' }),
        call(1, { id: 'b', name: 'g', args: '{"b"' }),
      ],
      [call(0, { args: '}' }), call(1, { args: ':2}' })],
    ]);
    expect(calls.map((entry) => entry.arguments)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('takes a whole call in the first delta, also with object arguments (§6, §9)', () => {
    const { calls } = accumulate([[call(0, { id: 'k', name: 'f', args: { q: 'x' } })]]);
    expect(calls).toEqual([{ id: 'k', name: 'f', arguments: '{"q":"x"}' }]);
  });

  it('never concatenates a name or id repeated in every chunk (§7, §11)', () => {
    const { calls, events } = accumulate([
      [call(0, { id: 'c', name: 'read_file', args: '{"p":' })],
      [call(0, { id: 'c', name: 'read_file', args: '"a"' })],
      [call(0, { id: null, name: 'read_file', args: '}' })],
      [call(0, { name: 'read_file', args: '' })],
    ]);
    expect(calls).toEqual([{ id: 'c', name: 'read_file', arguments: '{"p":"a"}' }]);
    expect(events).toHaveLength(3);
  });

  it('ignores entries that are not objects', () => {
    expect(accumulate([[null, 3, 'x']]).calls).toEqual([]);
  });
});
