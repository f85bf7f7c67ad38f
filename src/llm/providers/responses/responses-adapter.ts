import { classifyHttpError } from '../../errors/classify-http-error.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { buildResponsesRequest } from './build-responses-request.js';
import { decodeResponsesBody } from './decode-responses-body.js';
import { ResponsesStreamDecoder } from './responses-stream-decoder.js';

/**
 * The Responses API (`POST …/responses`; OpenAI, LM Studio, vLLM, llama.cpp, Ollama `/v1`), chosen with
 * `api_type: responses`. Requests and answers are translated at this edge to the canonical chat shapes.
 */
export const responsesAdapter: ProviderAdapter = {
  buildRequest: (request, options) =>
    buildResponsesRequest(options.endpoint, request, options.stream, options.leaveOut),
  createStreamDecoder: (context) => new ResponsesStreamDecoder(context),
  decodeResponse: decodeResponsesBody,
  classifyHttpError,
};
