import { appendFile, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactSecrets } from '../core/secrets.js';
import { redactAuditArguments } from './redact-audit-arguments.js';

/** One tool call as the audit log keeps it (one JSON line). */
export interface AuditEntry {
  /** ISO 8601 time the call started. */
  time: string;
  runId: string;
  toolCallId?: string;
  /** Where the tool comes from: `fs`, `module`, `skill`, `mcp:<server>`, `tool`. */
  source?: string;
  tool: string;
  /** The arguments with secrets redacted and file contents replaced by `{ bytes, sha256 }`. */
  arguments: unknown;
  /** `cancelled` with `abandoned: true` for a tool that did not stop when the run was cancelled. */
  outcome: 'ok' | 'error' | 'timeout' | 'cancelled';
  abandoned?: boolean;
  errorCode?: string;
  /** For refusals and failures: the error message (never file content). */
  errorMessage?: string;
  path?: string;
  /** For writes: the file's sha256 before (null when it did not exist) and after. */
  sha256Before?: string | null;
  sha256After?: string;
  durationMs: number;
}

export interface AuditLog {
  readonly path: string;
  /** Appends one entry as one line, with a single write; entries are written in call order. */
  append(entry: AuditEntry): Promise<void>;
  /** Redacts raw arguments the way `append` expects them. */
  redact(argumentsValue: unknown): unknown;
}

/**
 * An append-only JSONL audit log. Each entry is one `appendFile` of one line (O_APPEND), so a crash leaves at
 * most a torn last line, which `readAuditLog` skips with a warning.
 */
export function createAuditLog(path: string): AuditLog {
  let tail: Promise<void> = Promise.resolve();
  let checked = false;
  return {
    path,
    redact: redactAuditArguments,
    append(entry) {
      const line = `${redactSecrets(JSON.stringify(entry))}\n`;
      // Appends run one after another, so entries land in call order.
      const written = tail.then(async () => {
        let prefix = '';
        if (!checked) {
          await mkdir(dirname(path), { recursive: true });
          // A line torn by an earlier crash gets a newline of its own, so it cannot swallow this entry.
          if (await endsTorn(path)) prefix = '\n';
          checked = true;
        }
        await appendFile(path, prefix + line, { encoding: 'utf8', mode: 0o600 });
      });
      tail = written.catch(() => undefined);
      return written;
    },
  };
}

/** True when the log exists and does not end with a newline (the last write was torn). */
async function endsTorn(path: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return false;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 10;
  } finally {
    await handle.close();
  }
}
