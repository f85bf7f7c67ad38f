import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConformanceCase, loadConformanceCases } from '../support/conformance/conformance-case.js';
import { normalizeExpectation, projectOutcome } from '../support/conformance/project-outcome.js';
import { type CaseOutcome, replayCase } from '../support/conformance/replay-case.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';

// The conformance corpus (test/data/conformance, README there): every runner dialect's wire answer, replayed
// through the loopback fake runner and the real client, twice — in one write and one byte per write — and
// compared with the normalized output the case states. Only the fields a case names are compared.

const cases = loadConformanceCases();

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

describe('conformance corpus', () => {
  it('holds at least 45 described cases with unique ids', () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
    expect(new Set(cases.map((kase) => kase.id)).size).toBe(cases.length);
    const undescribed = cases.filter(
      (kase) =>
        !kase.quirk ||
        !kase.source ||
        (kase.expect.response === undefined) === (kase.expect.error === undefined),
    );
    expect(undescribed.map((kase) => kase.id)).toEqual([]);
  });

  it.each(cases)('$file › $id', async (kase) => {
    const whole = await replayCase(kase, runner, false);
    const bytewise = await replayCase(kase, runner, true);
    const expected = normalizeExpectation(kase.expect);
    const wholeProjection = projectOutcome(kase.expect, whole);
    const bytewiseProjection = projectOutcome(kase.expect, bytewise);
    // The case id as the message keeps vitest from folding the diffs of different cases into one.
    expect(
      {
        exchange: describeExchange(kase, whole),
        whole: wholeProjection,
        bytewise: isDeepStrictEqual(bytewiseProjection, wholeProjection)
          ? 'same as whole'
          : bytewiseProjection,
        ids: checkToolCallIds(kase, whole, bytewise),
      },
      kase.id,
    ).toEqual({
      exchange: expectedExchange(kase),
      whole: expected,
      bytewise: 'same as whole',
      ids: expectedIdChecks(kase),
    });
  });
});

/** Where the request went, whether it asked for a stream, and how many requests the case took. */
function describeExchange(kase: ConformanceCase, outcome: CaseOutcome) {
  const body = (outcome.request?.body ?? {}) as { stream?: unknown };
  return {
    path: outcome.request?.url.split('?')[0] ?? null,
    // Ollama streams unless told not to, so a non-streamed call must say `stream: false` (DECISIONS §2).
    stream: kase.client.apiType === 'ollama' ? body.stream : body.stream === true,
    requests: outcome.requestCount,
  };
}

function expectedExchange(kase: ConformanceCase) {
  const paths = { chat_completions: '/v1/chat/completions', responses: '/v1/responses', ollama: '/api/chat' };
  const path =
    kase.client.provider === 'azure'
      ? `/openai/deployments/${kase.client.model}/chat/completions`
      : paths[kase.client.apiType];
  return { path, stream: kase.request.stream, requests: 1 };
}

/** DECISIONS §3: every call has an id, unique in the response and the same when the answer is replayed. */
function checkToolCallIds(kase: ConformanceCase, whole: CaseOutcome, bytewise: CaseOutcome) {
  if (!kase.expect.response?.toolCalls?.length) return 'not applicable';
  const ids = idsOf(whole);
  const eventIds = (whole.events ?? []).flatMap((event) =>
    event.type === 'tool-call' ? [event.call.id] : [],
  );
  return {
    present: ids.length > 0 && ids.every((id) => typeof id === 'string' && id.trim() !== ''),
    unique: new Set(ids).size === ids.length,
    stable: isDeepStrictEqual(ids, idsOf(bytewise)),
    ...(kase.request.stream ? { sameInToolCallEvents: isDeepStrictEqual(eventIds, ids) } : {}),
  };
}

function expectedIdChecks(kase: ConformanceCase) {
  if (!kase.expect.response?.toolCalls?.length) return 'not applicable';
  return {
    present: true,
    unique: true,
    stable: true,
    ...(kase.request.stream ? { sameInToolCallEvents: true } : {}),
  };
}

function idsOf(outcome: CaseOutcome): string[] {
  return outcome.response?.toolCalls.map((call) => call.id) ?? [];
}
