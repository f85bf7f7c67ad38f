import type { Context, Tracer } from '@opentelemetry/api';
import type { Clock } from '../../core/deps.js';
import { SpineError } from '../../core/spine-error.js';
import type { ModelClient, ModelRequest, ModelResponse, StreamEvent, Usage } from '../../core/types.js';
import type { GovernanceConfig } from '../config/spine-config.js';
import { applyGovernance } from './apply-governance.js';
import type { BudgetGuard } from './budget-guard.js';
import { type CallSpan, startCallSpan } from './call-span.js';
import { type CallOutcome, type CircuitBreaker, classifyOutcome } from './circuit-breaker.js';
import type { ConcurrencyLimiter, ReleaseSlot } from './concurrency-limiter.js';

/** A model request that may carry the caller's trace context. */
export type GuardedRequest = ModelRequest & { traceContext?: Context };

export interface CallEndEvent {
  type: 'call-end';
  role: string;
  modelId: string;
  stream: boolean;
  latencyMs: number;
  usage?: Usage;
  /** The SpineError code when the call failed. */
  errorCode?: string;
}

export interface CallGuards {
  role: string;
  modelId: string;
  endpoint: string;
  provider: string;
  apiType: string;
  limiter: ConcurrencyLimiter;
  breaker: CircuitBreaker;
  budget?: BudgetGuard;
  governance?: GovernanceConfig;
  /** Undefined when no OpenTelemetry SDK is registered: calls then make no spans. */
  tracer: Tracer | undefined;
  clock: Clock;
  onCallEnd?: (event: CallEndEvent) => void;
}

/** A ModelClient whose requests may carry a trace context. */
export interface GuardedModelClient extends ModelClient {
  respond(request: GuardedRequest): Promise<ModelResponse>;
  stream(request: GuardedRequest): AsyncIterable<StreamEvent>;
}

/** One call's policy state: what to give back and report when it ends, however it ends. */
interface CallTicket {
  release?: ReleaseSlot;
  report?: (outcome: CallOutcome) => void;
  span: CallSpan;
  startedAt: number;
}

/**
 * Wraps a model client in the call policies, outermost first (ARCHITECTURE.md): a span around everything,
 * then governance and budget, then the concurrency limiter, then the circuit breaker, then the client
 * (which does its own retries and timeouts).
 */
export function guardModelClient(inner: ModelClient, guards: CallGuards): GuardedModelClient {
  return {
    async respond(request: GuardedRequest) {
      const ticket = openTicket(guards, request, false);
      try {
        const modelRequest = await admitCall(guards, ticket, request);
        const response = await inner.respond(modelRequest);
        closeTicket(guards, ticket, { usage: response.usage }, false);
        return response;
      } catch (error) {
        closeTicket(guards, ticket, { error }, false);
        throw error;
      }
    },
    stream: (request: GuardedRequest) => streamGuarded(inner, guards, request),
  };
}

async function* streamGuarded(
  inner: ModelClient,
  guards: CallGuards,
  request: GuardedRequest,
): AsyncGenerator<StreamEvent> {
  const ticket = openTicket(guards, request, true);
  let usage: Usage | undefined;
  try {
    const modelRequest = await admitCall(guards, ticket, request);
    for await (const event of inner.stream(modelRequest)) {
      if (event.type === 'done') usage = event.response.usage;
      yield event;
    }
    closeTicket(guards, ticket, { usage }, true);
  } catch (error) {
    closeTicket(guards, ticket, { error }, true);
    throw error;
  } finally {
    // The consumer stopped early: neither a success nor a failure of the endpoint.
    closeTicket(guards, ticket, { stopped: true }, true);
  }
}

function openTicket(guards: CallGuards, request: GuardedRequest, stream: boolean): CallTicket {
  const span = startCallSpan(guards.tracer, guards.clock, {
    role: guards.role,
    modelId: request.model ?? guards.modelId,
    endpoint: guards.endpoint,
    provider: guards.provider,
    apiType: guards.apiType,
    stream,
    parentContext: request.traceContext,
  });
  return { span, startedAt: guards.clock.now() };
}

async function admitCall(
  guards: CallGuards,
  ticket: CallTicket,
  request: GuardedRequest,
): Promise<ModelRequest> {
  const { traceContext: _traceContext, ...modelRequest } = request;
  const governed = applyGovernance(modelRequest, guards.governance);
  guards.budget?.admit(guards.role);
  ticket.release = await guards.limiter.acquire(request.signal);
  ticket.report = guards.breaker.admit();
  return governed;
}

type CallEnd = { usage: Usage | undefined } | { error: unknown } | { stopped: true };

function closeTicket(guards: CallGuards, ticket: CallTicket, end: CallEnd, stream: boolean): void {
  if (ticket.startedAt < 0) return;
  const latencyMs = guards.clock.now() - ticket.startedAt;
  ticket.startedAt = -1;
  ticket.release?.();
  const event: CallEndEvent = {
    type: 'call-end',
    role: guards.role,
    modelId: guards.modelId,
    stream,
    latencyMs,
  };
  if ('error' in end) {
    ticket.report?.(classifyOutcome(end.error));
    ticket.span.fail(end.error);
    event.errorCode = SpineError.is(end.error) ? end.error.code : 'UNKNOWN';
  } else {
    ticket.report?.('stopped' in end ? 'neutral' : 'success');
    if ('usage' in end && end.usage) {
      guards.budget?.record(end.usage);
      event.usage = end.usage;
    }
    ticket.span.succeed('usage' in end ? end.usage : undefined);
  }
  guards.onCallEnd?.(event);
}
