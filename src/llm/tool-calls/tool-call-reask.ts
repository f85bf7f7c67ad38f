import { SpineError } from '../../core/spine-error.js';
import type {
  ChatMessage,
  ModelClient,
  ModelRequest,
  ModelResponse,
  Repair,
  RetryInfo,
  StreamEvent,
  ToolSpec,
} from '../../core/types.js';
import { buildReaskMessages } from './reask.js';
import type { ToolCallProblem } from './repair/tool-call-problem.js';

export interface ToolCallReaskOptions {
  /** How many times the model is asked again before the call fails with LLM_INVALID_TOOL_CALL (default 2). */
  repairRetries?: number;
}

export const defaultRepairRetries = 2;

/**
 * Validates every tool call of an answer against the offered tools' JSON Schemas; a call naming an unknown
 * tool, or one still invalid after repair, makes the client ask again (DECISIONS.md §6): the original
 * messages, the model's own message, and a precise error per rejected call. After `repairRetries` re-asks
 * the call fails with LLM_INVALID_TOOL_CALL carrying the problems. Each re-ask is a `reask` repair on the
 * final response, a `retry` stream event and an `onRetry` call. Requests without tools pass straight through.
 * @example
 * const model = withToolCallReask(createModelClient({ baseUrl, model: 'qwen' }), { repairRetries: 1 });
 */
export function withToolCallReask(client: ModelClient, options: ToolCallReaskOptions = {}): ModelClient {
  const repairRetries = options.repairRetries ?? defaultRepairRetries;
  return {
    respond: (request) => respondWithReask(client, request, repairRetries),
    stream: (request) => streamWithReask(client, request, repairRetries),
  };
}

async function respondWithReask(
  client: ModelClient,
  request: ModelRequest,
  repairRetries: number,
): Promise<ModelResponse> {
  if (!offersTools(request)) return client.respond(request);
  const session = new ReaskSession(request, repairRetries);
  for (;;) {
    const verdict = session.review(await client.respond(session.request));
    if (verdict.accepted) return verdict.response;
  }
}

async function* streamWithReask(
  client: ModelClient,
  request: ModelRequest,
  repairRetries: number,
): AsyncGenerator<StreamEvent> {
  if (!offersTools(request)) {
    yield* client.stream(request);
    return;
  }
  const session = new ReaskSession(request, repairRetries);
  for (;;) {
    // From the first tool call on, events wait for the verdict on the whole answer: a rejected call never
    // reaches the caller as a `tool-call` event.
    const held: StreamEvent[] = [];
    let response: ModelResponse | undefined;
    for await (const event of client.stream(session.request)) {
      if (event.type === 'done') response = event.response;
      else if (event.type === 'tool-call' || held.length > 0) held.push(event);
      else yield event;
    }
    if (response === undefined) {
      yield* held;
      return;
    }
    const verdict = session.review(response);
    if (verdict.accepted) {
      yield* held;
      yield { type: 'done', response: verdict.response };
      return;
    }
    yield* held.filter((event) => event.type !== 'tool-call');
    yield { type: 'retry', retry: verdict.retry };
  }
}

type Verdict = { accepted: true; response: ModelResponse } | { accepted: false; retry: RetryInfo };

/** One logical call and its re-asks: what to send next, and the re-asks made so far. */
class ReaskSession {
  request: ModelRequest;
  readonly #original: ModelRequest;
  readonly #tools: readonly ToolSpec[];
  readonly #repairRetries: number;
  readonly #repairs: Repair[] = [];
  #reasks = 0;

  constructor(request: ModelRequest, repairRetries: number) {
    this.request = request;
    this.#original = request;
    this.#tools = request.tools ?? [];
    this.#repairRetries = repairRetries;
  }

  /** Accepts the answer, or prepares the re-ask; throws LLM_INVALID_TOOL_CALL when no re-ask is left. */
  review(response: ModelResponse): Verdict {
    // Found once, when the answer was settled (normalizeModelResponse); nothing is validated again here.
    const problems = response.toolCallProblems ?? [];
    if (problems.length === 0) {
      if (this.#repairs.length === 0) return { accepted: true, response };
      return { accepted: true, response: { ...response, repairs: [...response.repairs, ...this.#repairs] } };
    }
    if (this.#reasks >= this.#repairRetries) throw createInvalidToolCallError(problems, this.#reasks);
    this.#reasks += 1;
    // Each re-ask answers the latest message only: earlier wrong answers would be examples to repeat.
    const reask = this.#reaskMessages(response, problems);
    this.request = { ...this.#original, messages: [...this.#original.messages, ...reask] };
    for (const problem of problems) {
      const at = problem.toolCallId === undefined ? '' : ` (call ${problem.toolCallId})`;
      const detail = `re-ask ${this.#reasks} of ${this.#repairRetries}${at}: ${problem.message}`;
      this.#repairs.push({ kind: 'reask', detail });
    }
    const retry: RetryInfo = {
      attempt: this.#reasks,
      delayMs: 0,
      code: 'LLM_INVALID_TOOL_CALL',
      reason: `invalid tool call, asking the model again: ${describeProblems(problems)}`,
    };
    this.#original.onRetry?.(retry);
    return { accepted: false, retry };
  }

  #reaskMessages(response: ModelResponse, problems: readonly ToolCallProblem[]): ChatMessage[] {
    const tools = this.#tools;
    const original = response.sentMessage;
    if (original !== undefined) return buildReaskMessages(original, problems, { tools });
    // Without the text a call came in, it is answered like a structured one, by the id it was given.
    const structured = problems.map((problem) => ({ ...problem, fromText: false }));
    return buildReaskMessages(response.message, structured, { tools });
  }
}

function offersTools(request: ModelRequest): boolean {
  return (request.tools?.length ?? 0) > 0;
}

function describeProblems(problems: readonly ToolCallProblem[]): string {
  return problems.map((problem) => problem.message).join('; ');
}

function createInvalidToolCallError(problems: readonly ToolCallProblem[], reasks: number): SpineError {
  const asked = reasks === 1 ? '1 re-ask' : `${reasks} re-asks`;
  return new SpineError({
    code: 'LLM_INVALID_TOOL_CALL',
    message: `the model's tool call is still invalid after ${asked}: ${describeProblems(problems)}`,
    retryable: false,
    details: { reasks, problems: problems.map(summarizeProblem) },
  });
}

function summarizeProblem(problem: ToolCallProblem): Record<string, unknown> {
  const paths = Array.isArray(problem.details.paths) ? problem.details.paths : [];
  return {
    tool: problem.toolName ?? null,
    toolCallId: problem.toolCallId ?? null,
    code: problem.code,
    message: problem.message,
    paths,
    fromText: problem.fromText,
    details: problem.details,
  };
}
