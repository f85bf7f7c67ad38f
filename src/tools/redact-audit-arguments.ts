import { createHash } from 'node:crypto';

const secretKey =
  /(api[-_]?key|token|secret|password|passwd|authorization|credential|private[-_]?key|cookie)/i;
const contentKey = /^(content|diff)$/;
const secretValue =
  /\b(sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+)\b|Bearer\s+[A-Za-z0-9._~+/=-]{8,}/g;
const largeString = 1024;

/**
 * Arguments as the audit log may keep them: values under secret-looking keys replaced by `[redacted]`,
 * token-looking substrings masked, file contents (`content`, `diff`) and any long string replaced by
 * `{ bytes, sha256 }` so the log proves what was written without holding it.
 */
export function redactAuditArguments(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (key !== '' && secretKey.test(key)) return '[redacted]';
    if (contentKey.test(key) || Buffer.byteLength(value) > largeString) return summarize(value);
    return value.replace(secretValue, '[redacted]');
  }
  if (Array.isArray(value)) return value.map((item) => redactAuditArguments(item, key));
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      result[name] =
        secretKey.test(name) && item !== null && typeof item !== 'object'
          ? '[redacted]'
          : redactAuditArguments(item, name);
    }
    return result;
  }
  return value;
}

function summarize(text: string): { bytes: number; sha256: string } {
  return { bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
}
