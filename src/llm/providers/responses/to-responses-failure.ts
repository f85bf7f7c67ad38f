import type { SpineError } from '../../../core/spine-error.js';
import { classifyErrorBody } from '../../errors/classify-error-body.js';
import { isRecord } from '../../tool-calls/repair/parse-tool-arguments.js';

/**
 * A failed response (`status: "failed"`, a `response.failed` event, an `error` event, or a body whose
 * `error` is set) → SpineError, classified by the error's own code and type (RUNNER-QUIRKS §65).
 */
export function toResponsesFailure(source: unknown): SpineError {
  if (isRecord(source) && isRecord(source.error)) return classifyErrorBody({ error: source.error });
  // An `error` event is flat: `{type:"error", code, message, param}`; its `type` names the event, not the error.
  if (isRecord(source) && source.type === 'error') {
    const { type: _event, sequence_number: _sequence, ...error } = source;
    return classifyErrorBody({ error });
  }
  if (isRecord(source) && source.status === 'failed') {
    return classifyErrorBody({ error: { message: 'the runner reported that the response failed' } });
  }
  return classifyErrorBody(source);
}

/** True when a response object is a failure rather than an answer. */
export function isFailedResponse(response: Record<string, unknown>): boolean {
  if (response.status === 'failed') return true;
  return response.error !== undefined && response.error !== null && !Array.isArray(response.output);
}
