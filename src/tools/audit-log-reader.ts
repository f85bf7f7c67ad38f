import { readFile } from 'node:fs/promises';
import type { AuditEntry } from './audit-log.js';

export interface AuditLogRead {
  entries: AuditEntry[];
  /** What was skipped and why (a torn last line after a crash, a line that is not an entry). */
  warnings: string[];
}

/** Reads an audit log; a torn last line is skipped with a warning, nothing before it is lost. */
export async function readAuditLog(path: string): Promise<AuditLogRead> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], warnings: [] };
    throw error;
  }
  return parseAuditLog(text);
}

/** Parses audit log text (see `readAuditLog`). */
export function parseAuditLog(text: string): AuditLogRead {
  const entries: AuditEntry[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const entry = parseEntry(line);
    if (entry === undefined) warnings.push(`line ${index + 1}: not an audit entry, skipped`);
    else entries.push(entry);
  });
  if (last !== '') {
    // Only the last line can lack its newline: it was being written when the process died.
    const entry = parseEntry(last);
    if (entry === undefined)
      warnings.push(`line ${lines.length + 1}: torn last line (${Buffer.byteLength(last)} bytes), skipped`);
    else entries.push(entry);
  }
  return { entries, warnings };
}

function parseEntry(line: string): AuditEntry | undefined {
  try {
    const value = JSON.parse(line) as Partial<AuditEntry>;
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof value.tool !== 'string' ||
      typeof value.time !== 'string'
    ) {
      return undefined;
    }
    return value as AuditEntry;
  } catch {
    return undefined;
  }
}
