import { SpineError } from '../../../core/spine-error.js';
import type { ModelResponse, StreamEvent } from '../../../core/types.js';
import type { DecoderContext, ProviderAdapter } from '../provider-adapter.js';
import { buildOllamaRequest } from './build-ollama-request.js';
import { classifyOllamaHttpError } from './classify-ollama-error.js';
import { OllamaStreamDecoder } from './ollama-stream-decoder.js';

/** Ollama's native API (`POST {root}/api/chat`, NDJSON). `provider: 'ollama'` with the server root as base URL. */
export const ollamaAdapter: ProviderAdapter = {
  buildRequest: (request, options) => buildOllamaRequest(options.endpoint, request, options.stream),
  createStreamDecoder: (context) => new OllamaStreamDecoder(context),
  decodeResponse: decodeOllamaResponse,
  classifyHttpError: classifyOllamaHttpError,
};

/**
 * A non-streamed body is the final object alone (or, from a server that streamed anyway, the whole NDJSON
 * stream): both go through the stream decoder, so there is one reading of the wire.
 */
export function decodeOllamaResponse(bodyText: string, context: DecoderContext): ModelResponse {
  const decoder = new OllamaStreamDecoder(context);
  try {
    decoder.push(new TextEncoder().encode(bodyText));
    const last = decoder.end().at(-1);
    // end() either throws or finishes with exactly one done event.
    return (last as Extract<StreamEvent, { type: 'done' }>).response;
  } catch (error) {
    throw toBodyFailure(error, bodyText);
  }
}

// Spec 004 retries an unparseable non-streamed answer (linear backoff), as for Chat Completions; nothing of
// it reached the caller. A body without done:true is unparseable here, not a cut stream.
function toBodyFailure(error: unknown, bodyText: string): unknown {
  if (!SpineError.is(error) || (error.code !== 'LLM_BAD_RESPONSE' && error.code !== 'LLM_CONNECTION'))
    return error;
  return new SpineError({
    code: 'LLM_BAD_RESPONSE',
    message: error.code === 'LLM_CONNECTION' ? 'the Ollama answer has no done:true object' : error.message,
    retryable: true,
    details: { ...error.details, body: bodyText.length > 500 ? `${bodyText.slice(0, 500)}…` : bodyText },
    cause: error,
  });
}
