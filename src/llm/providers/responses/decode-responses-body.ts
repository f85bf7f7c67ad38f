import { SpineError } from '../../../core/spine-error.js';
import type { ModelResponse } from '../../../core/types.js';
import { isRecord } from '../../tool-calls/repair/parse-tool-arguments.js';
import type { DecoderContext } from '../provider-adapter.js';
import { assembleResponsesResponse } from './assemble-responses-response.js';
import { readResponsesOutput } from './read-responses-output.js';
import { isFailedResponse, toResponsesFailure } from './to-responses-failure.js';

/**
 * A non-streamed `POST /responses` body → ModelResponse; a failed response or error body throws. A body that
 * is not a response object is LLM_BAD_RESPONSE, retryable (spec 004 retries an unparseable answer).
 */
export function decodeResponsesBody(bodyText: string, context: DecoderContext): ModelResponse {
  const response = parseBody(bodyText);
  if (isFailedResponse(response)) throw toResponsesFailure(response);
  return assembleResponsesResponse({
    ...readResponsesOutput(response.output),
    response,
    latencyMs: context.now() - context.startedAt,
    maxOutputTokens: context.request.maxTokens,
  });
}

function parseBody(bodyText: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bodyText);
  } catch (error) {
    throw new SpineError({
      code: 'LLM_BAD_RESPONSE',
      message: `the runner's response is not JSON: ${bodyText.slice(0, 200)}`,
      retryable: true,
      cause: error,
    });
  }
  if (!isRecord(value)) {
    throw new SpineError({
      code: 'LLM_BAD_RESPONSE',
      message: 'the runner answered with JSON that is not a response object',
      retryable: true,
    });
  }
  return value;
}
