import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactSecrets } from '../core/secrets.js';
import type { AssistantMessage, ChatMessage, ToolResult, ToolSpec } from '../core/types.js';
import { runFolderMarker } from '../tools/fs/hidden-entries.js';
import type { EngineError, RunPhase } from './engine-types.js';

/** One model call of a run as it happened (protocol spec 002 §4.2), one JSON line in `turns.jsonl`. */
export interface EngineTurn {
  schemaVersion: 1;
  runId: string;
  /** `C01`, `C02`… counted over the whole run. */
  id: string;
  phaseBefore: RunPhase;
  /** Exactly what was sent (after trimming; the retried request when an overflow forced a retry). */
  request: { messages: ChatMessage[]; tools: ToolSpec[] };
  /** Absent when the model call failed; `error` says why. */
  response?: { assistant: AssistantMessage };
  toolRuns?: Array<{
    toolCallId: string;
    toolName: string;
    args: unknown;
    result: ToolResult;
    durationMs: number;
  }>;
  uiAfter?: { phase: RunPhase; stopReason?: string };
  error?: EngineError;
}

export const turnRecordsFileName = 'turns.jsonl';

/** Appends turn records to `{runDir}/turns.jsonl`, one whole line per write, never rewriting earlier lines. */
export function createTurnRecorder(runDir: string): (turn: EngineTurn) => Promise<void> {
  const path = join(runDir, turnRecordsFileName);
  let prepared: Promise<unknown> | undefined;
  return async (turn) => {
    prepared ??= markRunFolder(runDir);
    await prepared;
    // A runner may echo a key back in an answer or an error: it never reaches the record.
    await appendFile(path, `${redactSecrets(JSON.stringify(turn))}\n`, 'utf8');
  };
}

/**
 * Creates the run folder with its marker: the fs tools never enter a folder holding one (a transcript may hold
 * what a user typed), wherever the folder lies — `.spine/runs/…` or a `--run-dir` inside the project.
 */
export async function markRunFolder(runDir: string): Promise<void> {
  await mkdir(runDir, { recursive: true });
  await writeFile(join(runDir, runFolderMarker), 'A Spine run record: hidden from the tools.\n', {
    flag: 'wx',
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

export interface ReadTurnRecordsOptions {
  /** Told about every line skipped (default: `process.emitWarning`). */
  onWarning?: (message: string) => void;
}

/**
 * Reads a `turns.jsonl`. A torn last line (a crash mid-append) is skipped with a warning, as is any other
 * line that does not parse; the lines before it are returned intact.
 */
export async function readTurnRecords(
  path: string,
  options: ReadTurnRecordsOptions = {},
): Promise<EngineTurn[]> {
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'SpineTurnRecords'));
  const text = await readFile(path, 'utf8');
  const lines = text.split('\n');
  const records: EngineTurn[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line) as EngineTurn);
    } catch {
      const torn = index === lines.length - 1;
      warn(`${path}:${index + 1}: skipped ${torn ? 'a torn last line' : 'a line that is not JSON'}`);
    }
  });
  return records;
}

/** `C01`, `C02`, … `C99`, `C100`. */
export function formatTurnId(turn: number): string {
  return `C${String(turn).padStart(2, '0')}`;
}
