const chatPath = '/api/chat';

/**
 * `POST {root}/api/chat` (DECISIONS.md §1). The base URL is the server root; one given with a trailing `/v1`
 * (the OpenAI-compatible route) or `/api` is trimmed to the root, and a full `…/api/chat` URL is kept.
 */
export function resolveOllamaChatUrl(baseUrl: string): string {
  let root = trimTrailingSlashes(baseUrl);
  if (root.endsWith(chatPath)) return root;
  for (const suffix of ['/v1', '/api']) {
    if (root.endsWith(suffix)) root = trimTrailingSlashes(root.slice(0, -suffix.length));
  }
  return `${root}${chatPath}`;
}

function trimTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end -= 1;
  return url.slice(0, end);
}
