import type { ApiType, ProviderName } from '../providers/presets.js';

const apiPaths: readonly { suffix: string; apiType: ApiType }[] = [
  { suffix: '/chat/completions', apiType: 'chat_completions' },
  { suffix: '/responses', apiType: 'responses' },
  { suffix: '/api/chat', apiType: 'ollama' },
];

/** The API a full endpoint URL names (`…/chat/completions`, `…/responses`, `…/api/chat`); undefined for a base URL. */
export function inferApiType(endpoint: string): ApiType | undefined {
  const path = pathOf(endpoint);
  return apiPaths.find((entry) => path.endsWith(entry.suffix))?.apiType;
}

/** The provider a well-known host implies; undefined when the URL does not say. */
export function inferProvider(endpoint: string, apiType: ApiType | undefined): ProviderName | undefined {
  if (apiType === 'ollama') return 'ollama';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return undefined;
  }
  if (url.hostname === 'api.openai.com') return 'openai';
  if (url.hostname === 'api.deepseek.com') return 'deepseek';
  if (url.hostname.endsWith('.openai.azure.com')) return 'azure';
  // Ollama's native API lives at the root; with a /v1 path the OpenAI-compatible shim is meant.
  if (url.port === '11434' && !url.pathname.replace(/\/+$/, '').endsWith('/v1')) return 'ollama';
  return undefined;
}

/**
 * The base URL adapters append their path to: the endpoint without its API path. Azure URLs are kept whole,
 * since the deployment and `api-version` in them matter (RUNNER-QUIRKS §63).
 */
export function toBaseUrl(endpoint: string, provider: ProviderName, apiType?: ApiType): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  if (provider === 'azure') return trimmed;
  const match = apiPaths.find((entry) => trimmed.endsWith(entry.suffix));
  const base = match ? trimmed.slice(0, trimmed.length - match.suffix.length) : trimmed;
  // DECISIONS §1: Ollama's native API hangs off the server root, whatever path the config gave.
  return apiType === 'ollama' ? base.replace(/\/(v1|api)$/, '') : base;
}

function pathOf(endpoint: string): string {
  return endpoint.split(/[?#]/)[0]?.replace(/\/+$/, '') ?? '';
}
