import type { ModelRequest } from '../../../core/types.js';
import { endpointHeaders, keyHeaderOf } from '../../http/endpoint-headers.js';
import type { EndpointSettings, HttpRequestSpec } from '../provider-adapter.js';
import { resolveOllamaChatUrl } from './resolve-ollama-chat-url.js';
import { toOllamaMessages } from './to-ollama-messages.js';

/** Body fields Spine owns: extraBody may add to the request but never replace these. */
const protectedFields = new Set(['messages', 'stream', 'options']);

// Sampling and runner settings that Ollama reads only inside `options` (a top-level `seed` is silently
// ignored), so extraBody written for Chat Completions still takes effect.
const optionNames = new Set([
  'num_ctx',
  'num_predict',
  'num_keep',
  'num_batch',
  'num_gpu',
  'num_thread',
  'main_gpu',
  'seed',
  'top_k',
  'top_p',
  'min_p',
  'typical_p',
  'repeat_last_n',
  'repeat_penalty',
  'presence_penalty',
  'frequency_penalty',
  'stop',
  'mirostat',
  'mirostat_tau',
  'mirostat_eta',
  'penalize_newline',
]);

/**
 * Builds `POST {root}/api/chat` for one call. `stream` is always sent, since Ollama streams unless told not
 * to (DECISIONS.md §2). `maxTokens` → `options.num_predict`, `temperature` → `options.temperature`,
 * `extraBody.numCtx` (or `num_ctx`), else the endpoint's `contextLength` → `options.num_ctx` (RUNNER-QUIRKS
 * §51); `extraBody.options` is merged into `options`; `think`, `format`, `keep_alive` pass through (§36).
 * The caller's request is only read.
 */
export function buildOllamaRequest(
  endpoint: EndpointSettings,
  request: ModelRequest,
  stream: boolean,
): HttpRequestSpec {
  const body: Record<string, unknown> = {
    model: request.model ?? endpoint.model,
    messages: toOllamaMessages(request.messages),
    stream,
  };
  // Ollama has no tool_choice: "none" is honoured by not offering the tools; a forced call is left to
  // validation and re-asking.
  if (request.tools && request.tools.length > 0 && request.toolChoice !== 'none') body.tools = request.tools;
  const options = buildOptions(request, endpoint);
  for (const key in request.extraBody) {
    if (!protectedFields.has(key) && !optionNames.has(key) && key !== 'numCtx')
      body[key] = request.extraBody[key];
  }
  if (Object.keys(options).length > 0) body.options = options;
  return {
    url: resolveOllamaChatUrl(endpoint.baseUrl),
    headers: buildHeaders(endpoint, stream),
    body: JSON.stringify(body),
  };
}

function buildOptions(request: ModelRequest, endpoint: EndpointSettings): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  // The configured context window, else Ollama's small default silently truncates the prompt (§51).
  if (endpoint.contextLength !== undefined) options.num_ctx = endpoint.contextLength;
  if (request.maxTokens !== undefined) options.num_predict = request.maxTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  const extra = request.extraBody ?? {};
  const given = extra.options;
  if (typeof given === 'object' && given !== null && !Array.isArray(given)) Object.assign(options, given);
  for (const key in extra) {
    if (optionNames.has(key)) options[key] = extra[key];
  }
  if (extra.numCtx !== undefined) options.num_ctx = extra.numCtx;
  return options;
}

function buildHeaders(endpoint: EndpointSettings, stream: boolean): Record<string, string> {
  // A reverse proxy in front of Ollama may want a key; Ollama itself ignores the header.
  return endpointHeaders(endpoint, keyHeaderOf('ollama', endpoint), {
    'content-type': 'application/json',
    accept: stream ? 'application/x-ndjson' : 'application/json',
  });
}
