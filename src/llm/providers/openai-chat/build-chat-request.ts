import type { ModelRequest } from '../../../core/types.js';
import type { EndpointSettings, HttpRequestSpec } from '../provider-adapter.js';
import { getChatProviderTraits } from './chat-provider-traits.js';
import { defaultAzureApiVersion, resolveAzureChatUrl, resolveChatUrl } from './resolve-chat-url.js';
import { toWireMessages } from './to-wire-messages.js';

/** Body fields Spine owns: extraBody may add to the request but never replace these. */
const protectedFields = new Set(['messages', 'stream']);

/** Builds `POST …/chat/completions` for one call. The caller's request is only read. */
export function buildChatRequest(
  endpoint: EndpointSettings,
  request: ModelRequest,
  stream: boolean,
): HttpRequestSpec {
  const traits = getChatProviderTraits(endpoint.provider);
  const model = request.model ?? endpoint.model;
  const body: Record<string, unknown> = {
    model,
    messages: toWireMessages(request.messages, traits.replaysReasoningContent),
  };
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  body.stream = stream;
  if (stream && traits.streamUsage) body.stream_options = { include_usage: true };
  for (const key in request.extraBody) {
    if (!protectedFields.has(key)) body[key] = request.extraBody[key];
  }
  return {
    url: buildUrl(endpoint, model),
    headers: buildHeaders(endpoint, stream),
    body: JSON.stringify(body),
  };
}

function buildUrl(endpoint: EndpointSettings, model: string): string {
  if (endpoint.provider !== 'azure') return resolveChatUrl(endpoint.baseUrl);
  // The classic Azure path names the deployment, which Spine takes to be the model name.
  return resolveAzureChatUrl(endpoint.baseUrl, model, endpoint.apiVersion ?? defaultAzureApiVersion);
}

function buildHeaders(endpoint: EndpointSettings, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  if (endpoint.apiKey) {
    if (endpoint.provider === 'azure') headers['api-key'] = endpoint.apiKey;
    else headers.authorization = `Bearer ${endpoint.apiKey}`;
  }
  for (const name in endpoint.headers) headers[name.toLowerCase()] = endpoint.headers[name] as string;
  return headers;
}
