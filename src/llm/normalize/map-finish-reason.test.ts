import { describe, expect, it } from 'vitest';
import { mapFinishReason, resolveFinishReason } from './map-finish-reason.js';

describe('mapFinishReason', () => {
  it('maps the wire vocabulary', () => {
    expect(
      ['stop', 'length', 'tool_calls', 'function_call', 'content_filter', 'error', 'eos', 3].map(
        mapFinishReason,
      ),
    ).toEqual([
      'stop',
      'length',
      'tool_calls',
      'tool_calls',
      'content_filter',
      'unknown',
      'unknown',
      'unknown',
    ]);
    expect(mapFinishReason(null)).toBeNull();
    expect(mapFinishReason(undefined)).toBeNull();
  });
});

describe('resolveFinishReason', () => {
  const none = { toolCalls: 0, incompleteToolCalls: [] };
  it('reports tool_calls when calls are present even if the runner said stop (§14)', () => {
    expect(resolveFinishReason('stop', { toolCalls: 1, incompleteToolCalls: [] })).toBe('tool_calls');
    expect(resolveFinishReason(null, { toolCalls: 2, incompleteToolCalls: [] })).toBe('tool_calls');
  });

  it('keeps length and content_filter', () => {
    expect(resolveFinishReason('length', { toolCalls: 1, incompleteToolCalls: [] })).toBe('length');
    expect(resolveFinishReason('content_filter', { toolCalls: 1, incompleteToolCalls: [] })).toBe(
      'content_filter',
    );
  });

  it('reads tool_calls whose calls stop inside a string as a truncation (§16)', () => {
    const cut = { id: 'c1', name: 'write', rawArguments: '{"path":"a.py","content":"def f(' };
    expect(resolveFinishReason('tool_calls', { toolCalls: 0, incompleteToolCalls: [cut] })).toBe('length');
  });

  it('keeps tool_calls when the calls only lack closing brackets, for the lenient repair to judge', () => {
    const slip = { id: 'c1', name: 'add', rawArguments: '{"task": {"title": "Buy milk"' };
    expect(resolveFinishReason('tool_calls', { toolCalls: 0, incompleteToolCalls: [slip] })).toBe(
      'tool_calls',
    );
  });

  it('passes the rest through; no finish reason is unknown', () => {
    expect(resolveFinishReason('stop', none)).toBe('stop');
    expect(resolveFinishReason(null, none)).toBe('unknown');
  });
});
