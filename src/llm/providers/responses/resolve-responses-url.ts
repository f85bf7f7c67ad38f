const responsesPath = '/responses';

/** `POST {baseUrl}/responses`. The base URL may end in a slash, or already be the full endpoint. */
export function resolveResponsesUrl(baseUrl: string): string {
  let end = baseUrl.length;
  while (end > 0 && baseUrl[end - 1] === '/') end -= 1;
  const base = baseUrl.slice(0, end);
  return base.endsWith(responsesPath) ? base : `${base}${responsesPath}`;
}
