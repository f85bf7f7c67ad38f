import type { ModelRequest } from '../../../core/types.js';
import { endpointHeaders, keyHeaderOf } from '../../http/endpoint-headers.js';
import type { ProviderPreset } from '../presets.js';
import type { EndpointSettings, HttpRequestSpec } from '../provider-adapter.js';
import { resolveEndpointPreset } from '../resolve-endpoint-preset.js';
import { shapeChatRequestBody } from '../shape-chat-request-body.js';
import { defaultAzureApiVersion, resolveAzureChatUrl, resolveChatUrl } from './resolve-chat-url.js';

/** Body fields Spine owns: extraBody may add to the request but never replace these. */
const protectedFields = new Set(['messages', 'stream']);

/**
 * Builds `POST …/chat/completions` for one call. The body Spine builds is shaped by the endpoint's preset, so
 * it never carries a field that runner rejects (RUNNER-QUIRKS §40–50, DECISIONS §7); `extraBody` is the
 * caller's own and is added as given, after shaping. The caller's request is only read.
 */
export function buildChatRequest(
  endpoint: EndpointSettings,
  request: ModelRequest,
  stream: boolean,
  leaveOut: ReadonlySet<string> = new Set(),
): HttpRequestSpec {
  const model = request.model ?? endpoint.model;
  const preset = resolveEndpointPreset(endpoint, model);
  const body: Record<string, unknown> = { model, messages: request.messages };
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  body.stream = stream;
  const shaped = shapeChatRequestBody(body, preset);
  const optionalFields = addedByShaping(body, shaped).filter(
    (field) => !(field in (request.extraBody ?? {})),
  );
  for (const field of optionalFields) if (leaveOut.has(field)) delete shaped[field];
  for (const key in request.extraBody) {
    if (!protectedFields.has(key)) shaped[key] = request.extraBody[key];
  }
  return {
    url: buildUrl(endpoint, preset, model),
    headers: buildHeaders(endpoint, preset, stream),
    body: JSON.stringify(shaped),
    optionalFields: optionalFields.filter((field) => field in shaped),
  };
}

/** Fields the preset added that the caller did not ask for: the call can do without them (§44). */
function addedByShaping(asked: Record<string, unknown>, shaped: Record<string, unknown>): string[] {
  return ['stream_options', 'parallel_tool_calls'].filter((field) => field in shaped && !(field in asked));
}

function buildUrl(endpoint: EndpointSettings, preset: ProviderPreset, model: string): string {
  if (preset.name !== 'azure') return resolveChatUrl(endpoint.baseUrl);
  // The classic Azure path names the deployment, which Spine takes to be the model name.
  return resolveAzureChatUrl(endpoint.baseUrl, model, endpoint.apiVersion ?? defaultAzureApiVersion);
}

function buildHeaders(
  endpoint: EndpointSettings,
  preset: ProviderPreset,
  stream: boolean,
): Record<string, string> {
  return endpointHeaders(endpoint, keyHeaderOf('chat_completions', { ...endpoint, preset }), {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  });
}
