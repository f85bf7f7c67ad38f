/**
 * The credentials this process was given (API keys, configured header values, passwords in base URLs), so that
 * every place Spine writes or prints text can blank them out: a runner that echoes a key back in an error body
 * must not get it into an error message, the terminal, `--json` output or a run record.
 *
 * Process-wide on purpose: an error made deep in a stream decoder, a turn record written by the engine and a
 * line printed by the CLI cannot all be handed the client's options, and a key is secret everywhere.
 */
const secrets = new Set<string>();
let pattern: RegExp | undefined;

export const redactedMark = '[REDACTED]';
// Shorter values are too likely to be ordinary words; no real key is this short.
const minimumSecretLength = 6;

/** Remembers a credential (and its URL- and JSON-escaped forms) for redaction. */
export function registerSecret(value: string | undefined): void {
  if (value === undefined || value.length < minimumSecretLength) return;
  const bearer = /^(?:bearer|basic|token)\s+(\S.*)$/i.exec(value)?.[1];
  const values = bearer === undefined ? [value] : [value, bearer];
  const forms = values.flatMap((plain) => [
    plain,
    encodeURIComponent(plain),
    JSON.stringify(plain).slice(1, -1),
  ]);
  for (const form of forms) {
    if (form.length >= minimumSecretLength && !secrets.has(form)) {
      secrets.add(form);
      pattern = undefined;
    }
  }
}

/** The text with every registered credential replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  if (secrets.size === 0 || text.length < minimumSecretLength) return text;
  pattern ??= new RegExp(
    [...secrets]
      .sort((left, right) => right.length - left.length)
      .map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  return text.replace(pattern, redactedMark);
}

/** A copy of a JSON-like value with every string redacted; the value itself when nothing is registered. */
export function redactSecretsDeep<T>(value: T): T {
  if (secrets.size === 0) return value;
  return redactValue(value, 0) as T;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (typeof value !== 'object' || value === null || depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item, depth + 1);
  return copy;
}
