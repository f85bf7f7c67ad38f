/** The default Azure OpenAI data-plane version (GA). */
export const defaultAzureApiVersion = '2024-10-21';

const chatPath = '/chat/completions';

/**
 * `POST {baseUrl}/chat/completions`. The base URL may end in a slash, or already be the full endpoint.
 */
export function resolveChatUrl(baseUrl: string): string {
  const base = trimTrailingSlashes(baseUrl);
  return base.endsWith(chatPath) ? base : `${base}${chatPath}`;
}

/**
 * Azure OpenAI (RUNNER-QUIRKS §63): the classic form puts the deployment in the path and needs `api-version`;
 * a base URL ending in `/openai/v1` is the v1 API, which takes the plain OpenAI path and no version.
 */
export function resolveAzureChatUrl(baseUrl: string, deployment: string, apiVersion: string): string {
  const base = trimTrailingSlashes(baseUrl);
  const version = `api-version=${encodeURIComponent(apiVersion)}`;
  if (/\/openai\/v1$/.test(base)) return `${base}${chatPath}`;
  if (base.split('?')[0]?.endsWith(chatPath)) {
    // A full endpoint URL: keep it, adding the version only where the classic form needs one.
    return base.includes('api-version=') || base.includes('/openai/v1/') ? base : `${base}?${version}`;
  }
  const resource = base.replace(/\/openai$/, '');
  return `${resource}/openai/deployments/${encodeURIComponent(deployment)}${chatPath}?${version}`;
}

function trimTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end -= 1;
  return url.slice(0, end);
}
