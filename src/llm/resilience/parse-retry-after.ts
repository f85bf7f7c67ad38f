/**
 * The server's requested wait, in ms: `retry-after-ms` (OpenAI, Azure) wins over `retry-after`, which is
 * seconds or an HTTP date (RUNNER-QUIRKS §55). Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(headers: Record<string, string>, now: number): number | undefined {
  const milliseconds = parseNumber(headers['retry-after-ms']);
  if (milliseconds !== undefined) return milliseconds;
  const value = headers['retry-after']?.trim();
  if (!value) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

/** `x-should-retry: true|false` (OpenAI) overrides the status-based decision; anything else is no opinion. */
export function parseShouldRetry(headers: Record<string, string>): boolean | undefined {
  const value = headers['x-should-retry'];
  return value === 'true' ? true : value === 'false' ? false : undefined;
}
