import { describeUrl } from '../errors/describe-url.js';
import { endpointHeaders, keyHeaderOf } from '../http/endpoint-headers.js';
import {
  type EndpointUrl,
  parseEndpointUrl,
  registerEndpointSecrets,
  withEndpointQuery,
} from '../http/endpoint-url.js';
import type { HttpResponse, HttpTransport } from '../http/http-transport.js';
import { createNodeHttpTransport } from '../http/node-http-transport.js';
import type { ApiType, ProviderPreset } from '../providers/presets.js';

/** Where a runner lists its models, and how it answered. */
export type ModelListing =
  | { status: 'listed'; models: string[] }
  | { status: 'not-listed'; reason: string }
  | { status: 'auth-failed'; httpStatus: number; message: string }
  | { status: 'unreachable'; message: string }
  | { status: 'redirected'; httpStatus: number; location: string }
  | { status: 'error'; httpStatus: number; message: string };

export interface ListModelsTarget {
  baseUrl: string;
  apiType: ApiType;
  preset: ProviderPreset;
  apiKey?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** What sends the request: the same kind a model call uses (default Node's own http, as the CLI's calls). */
  transport?: HttpTransport;
}

/**
 * Asks the runner which models it serves: `GET /api/tags` on Ollama's native API, `GET {base}/models` on the
 * OpenAI-shaped ones. Azure lists deployments elsewhere and with other rights, so it is not asked.
 */
export async function listEndpointModels(target: ListModelsTarget): Promise<ModelListing> {
  if (target.preset.name === 'azure') {
    return {
      status: 'not-listed',
      reason: 'Azure deployments are not listed through the inference endpoint',
    };
  }
  let endpoint: EndpointUrl;
  try {
    endpoint = parseEndpointUrl(target.baseUrl);
  } catch (error) {
    return { status: 'unreachable', message: (error as Error).message };
  }
  registerEndpointSecrets(target.apiKey, target.headers);
  const path =
    target.apiType === 'ollama' ? `${ollamaRoot(endpoint.base)}/api/tags` : `${endpoint.base}/models`;
  const url = withEndpointQuery(path, endpoint.query);
  const transport = target.transport ?? createNodeHttpTransport();
  let response: HttpResponse;
  try {
    // Never followed: a redirect to another origin would carry the key there. Reported instead.
    response = await transport.send({
      url,
      method: 'GET',
      headers: buildHeaders(target, endpoint.basicAuthorization),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    return { status: 'unreachable', message: describeSendFailure(error) };
  }
  if (response.status >= 300 && response.status < 400) {
    response.cancel();
    return {
      status: 'redirected',
      httpStatus: response.status,
      location: describeUrl(new URL(response.headers.location ?? '', url).toString()),
    };
  }
  const text = await readText(response).catch(() => '');
  if (response.status === 401 || response.status === 403) {
    return { status: 'auth-failed', httpStatus: response.status, message: text.slice(0, 200) };
  }
  if (response.status < 200 || response.status >= 300)
    return { status: 'error', httpStatus: response.status, message: text.slice(0, 200) };
  const models = readModelIds(text);
  return models
    ? { status: 'listed', models }
    : { status: 'not-listed', reason: 'the model list is not in a known shape' };
}

/** Whether a listed name is the configured model; Ollama's implicit `:latest` tag counts as the same. */
export function isModelListed(models: readonly string[], modelId: string): boolean {
  const withTag = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return models.some((name) => name === modelId || withTag(name) === withTag(modelId));
}

/** Ollama's native API lives at the server root; a base URL given with `/v1` or `/api` is trimmed to it. */
function ollamaRoot(base: string): string {
  return base.replace(/\/(?:v1|api)$/, '');
}

/** The headers a model call to this endpoint sends (`endpointHeaders`), Basic auth from the URL as it does. */
function buildHeaders(
  target: ListModelsTarget,
  basicAuthorization: string | undefined,
): Record<string, string> {
  const hasOwn = Object.keys(target.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const headers =
    basicAuthorization !== undefined && !target.apiKey && !hasOwn
      ? { authorization: basicAuthorization, ...target.headers }
      : target.headers;
  return endpointHeaders(
    { apiKey: target.apiKey, headers },
    keyHeaderOf(target.apiType, { provider: target.preset.name, preset: target.preset }),
    { accept: 'application/json' },
  );
}

async function readText(response: HttpResponse): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** OpenAI `{data:[{id}]}`, Ollama `{models:[{name|model}]}`. */
function readModelIds(text: string): string[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const list = (body as { data?: unknown; models?: unknown }).data ?? (body as { models?: unknown }).models;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, name, model } = entry as { id?: unknown; name?: unknown; model?: unknown };
    const value = id ?? name ?? model;
    return typeof value === 'string' ? [value] : [];
  });
}

function describeSendFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || /timeout|aborted/i.test(error.message)))
    return 'no answer before the timeout';
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
