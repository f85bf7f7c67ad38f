import type { ModelResponse, StreamEvent } from '../../../src/core/types.js';
import type { CaseExpectation, ExpectedResponse } from './conformance-case.js';
import type { CaseOutcome } from './replay-case.js';

/** The event types the corpus speaks about; `usage`, `retry` and live `tool-call-delta` previews are left out. */
const comparedEventTypes = new Set(['text-delta', 'reasoning-delta', 'tool-call', 'done']);

/**
 * The outcome cut down to the fields the case names, in the same shape as the expectation, so one deep
 * equality shows every mismatch of a case at once. Text is compared without edge whitespace: where markup
 * (`<think>`, `<tool_call>`, a fence) was removed, the blank lines around it are presentation the specs
 * leave open.
 */
export function projectOutcome(expected: CaseExpectation, outcome: CaseOutcome): CaseExpectation {
  const projected: Record<string, unknown> = {};
  if (expected.response) {
    projected.response = outcome.response
      ? projectResponse(expected.response, outcome.response)
      : { failedWith: outcome.error ?? 'no response and no error' };
  }
  if (expected.error) {
    projected.error = outcome.error
      ? projectError(expected.error, outcome.error)
      : { succeededWith: outcome.response ? summarize(outcome.response) : 'nothing' };
  }
  if (expected.events) projected.events = projectEvents(expected.events, outcome.events ?? []);
  return projected as CaseExpectation;
}

/** The expectation with the same normalization applied (trimmed text, sorted repair kinds). */
export function normalizeExpectation(expected: CaseExpectation): CaseExpectation {
  const normalized: CaseExpectation = { ...expected };
  if (expected.response) {
    const response = { ...expected.response };
    if (response.content !== undefined) response.content = response.content.trim();
    if (typeof response.reasoning === 'string') response.reasoning = response.reasoning.trim();
    if (response.repairs) response.repairs = [...response.repairs].sort();
    normalized.response = response;
  }
  if (expected.events) {
    const events = { ...expected.events };
    if (events.text !== undefined) events.text = events.text.trim();
    if (events.reasoning !== undefined) events.reasoning = events.reasoning.trim();
    normalized.events = events;
  }
  return normalized;
}

function projectResponse(expected: ExpectedResponse, actual: ModelResponse): Record<string, unknown> {
  const projected: Record<string, unknown> = {};
  if ('content' in expected) projected.content = actual.content.trim();
  if ('reasoning' in expected)
    projected.reasoning = actual.reasoning === null ? null : actual.reasoning.trim();
  if (expected.toolCalls) {
    projected.toolCalls = actual.toolCalls.map((call, index) => {
      const wantsId = expected.toolCalls?.[index]?.id !== undefined;
      return wantsId
        ? { id: call.id, name: call.name, arguments: call.arguments }
        : { name: call.name, arguments: call.arguments };
    });
  }
  if (expected.incompleteToolCalls) {
    projected.incompleteToolCalls = actual.incompleteToolCalls.map((call, index) => {
      const want = expected.incompleteToolCalls?.[index];
      return {
        ...(want?.id === undefined ? {} : { id: call.id }),
        name: call.name,
        ...(want?.rawArguments === undefined ? {} : { rawArguments: call.rawArguments }),
      };
    });
  }
  if ('finishReason' in expected) projected.finishReason = actual.finishReason;
  if (expected.usage) projected.usage = pickLike(expected.usage, actual.usage);
  if (expected.repairs) projected.repairs = projectRepairs(expected.repairs, actual);
  return projected;
}

/** `[]` must match an empty list; otherwise every named kind must have been recorded (others may be too). */
function projectRepairs(expected: string[], actual: ModelResponse): unknown {
  const recorded: string[] = actual.repairs.map((repair) => repair.kind).sort();
  if (expected.length === 0) return recorded;
  const remaining = [...recorded];
  for (const kind of expected) {
    const at = remaining.indexOf(kind);
    if (at === -1) return { recorded };
    remaining.splice(at, 1);
  }
  return [...expected].sort();
}

function projectError(
  expected: { code: string; messageIncludes?: string; retryable?: boolean },
  actual: { code: string; message: string; retryable: boolean },
) {
  const projected: { code: string; messageIncludes?: string; retryable?: boolean } = { code: actual.code };
  if (expected.messageIncludes !== undefined) {
    const includes = actual.message.includes(expected.messageIncludes);
    projected.messageIncludes = includes ? expected.messageIncludes : `(message was) ${actual.message}`;
  }
  if (expected.retryable !== undefined) projected.retryable = actual.retryable;
  return projected;
}

function projectEvents(expected: NonNullable<CaseExpectation['events']>, events: StreamEvent[]) {
  const projected: Record<string, unknown> = {};
  if (expected.types) projected.types = collapseTypes(events);
  if (expected.text !== undefined) projected.text = joinDeltas(events, 'text-delta');
  if (expected.reasoning !== undefined) projected.reasoning = joinDeltas(events, 'reasoning-delta');
  return projected;
}

function collapseTypes(events: StreamEvent[]): string[] {
  const types: string[] = [];
  for (const event of events) {
    if (comparedEventTypes.has(event.type) && types.at(-1) !== event.type) types.push(event.type);
  }
  return types;
}

function joinDeltas(events: StreamEvent[], type: 'text-delta' | 'reasoning-delta'): string {
  return events
    .map((event) => (event.type === type ? event.text : ''))
    .join('')
    .trim();
}

/** Only the keys the expectation names, recursively (usage.timings). */
function pickLike(expected: Record<string, unknown>, actual: object): Record<string, unknown> {
  const source = actual as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expected)) {
    const actualValue = source[key];
    picked[key] =
      isPlainObject(value) && isPlainObject(actualValue) ? pickLike(value, actualValue) : actualValue;
  }
  return picked;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function summarize(response: ModelResponse) {
  return {
    content: response.content,
    toolCalls: response.toolCalls.map((call) => call.name),
    finishReason: response.finishReason,
  };
}
