import type { ModelRequest, ToolChoice, ToolSpec } from '../../../core/types.js';
import { endpointHeaders, keyHeaderOf } from '../../http/endpoint-headers.js';
import type { EndpointSettings, HttpRequestSpec } from '../provider-adapter.js';
import { resolveResponsesUrl } from './resolve-responses-url.js';
import { toResponsesInput } from './to-responses-input.js';

/** Body fields Spine owns: extraBody may add to the request but never replace these. */
const protectedFields = new Set(['input', 'stream']);

/** A function tool as the Responses API takes it: flat, not nested under `function`. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  strict: boolean;
}

/**
 * Builds `POST …/responses` for one call from the canonical chat-shaped request. Stateless by default
 * (`store: false`, full input every turn; RUNNER-QUIRKS §66-67: vLLM refuses stored responses unless set up
 * for them, Ollama has no state); `extraBody` may override that. The caller's request is only read.
 */
export function buildResponsesRequest(
  endpoint: EndpointSettings,
  request: ModelRequest,
  stream: boolean,
  leaveOut: ReadonlySet<string> = new Set(),
): HttpRequestSpec {
  const { instructions, input } = toResponsesInput(request.messages);
  const body: Record<string, unknown> = { model: request.model ?? endpoint.model };
  if (instructions !== undefined) body.instructions = instructions;
  body.input = input;
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map(toResponsesTool);
    if (request.toolChoice !== undefined) body.tool_choice = toResponsesToolChoice(request.toolChoice);
  }
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  // Spine's own choice, left out for a runner that refuses the field by name (RUNNER-QUIRKS §44).
  const storeIsOurs = !('store' in (request.extraBody ?? {}));
  if (!leaveOut.has('store')) body.store = false;
  body.stream = stream;
  for (const key in request.extraBody) {
    if (!protectedFields.has(key)) body[key] = request.extraBody[key];
  }
  return {
    url: resolveResponsesUrl(endpoint.baseUrl),
    headers: buildHeaders(endpoint, stream),
    body: JSON.stringify(body),
    optionalFields: storeIsOurs && 'store' in body ? ['store'] : [],
  };
}

/**
 * `{type:'function', function:{…}}` → `{type:'function', name, …}`. `strict` is always sent: the Responses
 * API takes a missing one as `true`, and strict mode rejects ordinary schemas (optional properties,
 * no `additionalProperties: false`).
 */
export function toResponsesTool(tool: ToolSpec): ResponsesFunctionTool {
  const { name, description, parameters, strict } = tool.function;
  const flat: ResponsesFunctionTool = { type: 'function', name, strict: strict === true };
  if (description !== undefined) flat.description = description;
  if (parameters !== undefined) flat.parameters = parameters;
  return flat;
}

export function toResponsesToolChoice(choice: ToolChoice): string | { type: 'function'; name: string } {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.function.name };
}

function buildHeaders(endpoint: EndpointSettings, stream: boolean): Record<string, string> {
  return endpointHeaders(endpoint, keyHeaderOf('responses', endpoint), {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  });
}
