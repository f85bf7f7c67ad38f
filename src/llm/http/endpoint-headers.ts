/**
 * The headers that carry who is calling, for every request to an endpoint — a model call in any dialect and the
 * model listing of `spine doctor` alike, so a doctor OK means a call gets through: the key as Azure's `api-key`
 * or as `Authorization: Bearer` (a given key is always sent: a runner that needs none may sit behind a proxy
 * that does), then the endpoint's own headers, which win. Names are lower case.
 */
export function endpointHeaders(
  endpoint: { apiKey?: string | undefined; headers?: Record<string, string> | undefined },
  keyHeader: 'authorization' | 'api-key',
  base: Record<string, string>,
): Record<string, string> {
  const headers = { ...base };
  if (endpoint.apiKey) {
    if (keyHeader === 'api-key') headers['api-key'] = endpoint.apiKey;
    else headers.authorization = `Bearer ${endpoint.apiKey}`;
  }
  for (const name in endpoint.headers) headers[name.toLowerCase()] = endpoint.headers[name] as string;
  return headers;
}

/** Which header a dialect sends the key in: Azure's `api-key` for its Chat Completions and Responses APIs. */
export function keyHeaderOf(
  apiType: 'chat_completions' | 'responses' | 'ollama',
  endpoint: { provider: string; preset?: { authHeader: string } | undefined },
): 'authorization' | 'api-key' {
  if (apiType === 'ollama') return 'authorization';
  if (apiType === 'responses') return endpoint.provider === 'azure' ? 'api-key' : 'authorization';
  return endpoint.preset?.authHeader === 'api-key' ? 'api-key' : 'authorization';
}
