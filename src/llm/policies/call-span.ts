import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { Clock } from '../../core/deps.js';
import { lazyModule } from '../../core/lazy-module.js';
import { SpineError } from '../../core/spine-error.js';
import type { Usage } from '../../core/types.js';

export interface CallSpanInfo {
  role: string;
  modelId: string;
  endpoint: string;
  provider: string;
  apiType: string;
  stream: boolean;
  /** A parent trace context from the caller (spec 001 §6 `trace_ctx`); else the active one. */
  parentContext?: Context;
}

const otel = lazyModule<typeof import('@opentelemetry/api')>('@opentelemetry/api');

const noSpan: CallSpan = { succeed: () => undefined, fail: () => undefined };

export interface CallSpan {
  succeed(usage: Usage | undefined): void;
  fail(error: unknown): void;
}

/**
 * One span per model call (spec 001 §6) with the attributes role, model_id, endpoint, latency_ms,
 * usage.prompt_tokens, usage.completion_tokens and, on failure, error_type and an error status. The same facts
 * are also set under OpenTelemetry's GenAI semantic conventions (`gen_ai.*`), which tracing backends chart.
 */
export function startCallSpan(tracer: Tracer | undefined, clock: Clock, info: CallSpanInfo): CallSpan {
  // No tracer: no span, and the OpenTelemetry API is never loaded.
  if (tracer === undefined) return noSpan;
  const { SpanKind, SpanStatusCode } = otel();
  const startedAt = clock.now();
  const span = tracer.startSpan(
    info.stream ? 'llm.stream' : 'llm.respond',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        role: info.role,
        model_id: info.modelId,
        endpoint: info.endpoint,
        provider: info.provider,
        api_type: info.apiType,
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': info.provider,
        'gen_ai.request.model': info.modelId,
      },
    },
    info.parentContext,
  );
  let ended = false;
  const end = (finish: (span: Span) => void) => {
    if (ended) return;
    ended = true;
    span.setAttribute('latency_ms', clock.now() - startedAt);
    finish(span);
    span.end();
  };
  return {
    succeed: (usage) =>
      end((active) => {
        if (usage?.promptTokens != null) {
          active.setAttribute('usage.prompt_tokens', usage.promptTokens);
          active.setAttribute('gen_ai.usage.input_tokens', usage.promptTokens);
        }
        if (usage?.completionTokens != null) {
          active.setAttribute('usage.completion_tokens', usage.completionTokens);
          active.setAttribute('gen_ai.usage.output_tokens', usage.completionTokens);
        }
        active.setStatus({ code: SpanStatusCode.OK });
      }),
    fail: (error) =>
      end((active) => {
        const errorType = SpineError.is(error) ? error.code : error instanceof Error ? error.name : 'unknown';
        active.setAttribute('error_type', errorType);
        active.setAttribute('error.type', errorType);
        if (error instanceof Error) active.recordException(error);
        active.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
      }),
  };
}
