import type { AuditEntry } from './audit-log.js';

/**
 * One readable line per entry, for `spine audit RUN`:
 * `2025-01-02 10:00:00.123  fs.write        ok     12ms  @project/a.md  sha256 1a2b3c4d → 5e6f7a8b`.
 */
export function formatAuditLog(entries: readonly AuditEntry[]): string[] {
  return entries.map(formatAuditEntry);
}

export function formatAuditEntry(entry: AuditEntry): string {
  const time = entry.time.replace('T', ' ').replace(/Z$/, '');
  const outcome = entry.outcome === 'ok' ? 'ok   ' : `ERROR ${entry.errorCode ?? ''}`;
  const parts = [time, entry.tool.padEnd(14), outcome, `${Math.round(entry.durationMs)}ms`];
  const path = entry.path ?? describeTarget(entry.arguments);
  if (path !== undefined) parts.push(path);
  if (entry.sha256After !== undefined) {
    const before = entry.sha256Before ? entry.sha256Before.slice(0, 8) : '(new)';
    parts.push(`sha256 ${before} → ${entry.sha256After.slice(0, 8)}`);
  }
  if (entry.outcome === 'error' && entry.errorMessage !== undefined) parts.push(`— ${entry.errorMessage}`);
  return parts.join('  ');
}

function describeTarget(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.path === 'string') return JSON.stringify(record.path);
  if (typeof record.query === 'string') return `query ${JSON.stringify(record.query)}`;
  return undefined;
}
