/**
 * A URL as it may be shown or recorded: without `user:password@` and without the values of query parameters
 * that carry keys (`?key=…`, `?api-key=…`), so an error message never leaks a credential.
 */
export function describeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.replace(/\/\/[^/@]*@/, '//');
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (/key|token|secret|password|sig/i.test(name)) url.searchParams.set(name, 'REDACTED');
  }
  return url.toString();
}
