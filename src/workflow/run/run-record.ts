import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import type { EngineError } from '../../engine/engine-types.js';
import { writeJsonAtomically } from './write-json-atomically.js';

export const runRecordFileName = 'run.json';

/** The run index's phases (docs/workflows.md §4.1). */
export type RunRecordPhase = 'running' | 'waiting-user' | 'completed' | 'failed';

/** `run.json`: what a run was made from and where it last stood. Its position is the state file's, not this. */
export interface RunRecord {
  version: 1;
  runId: string;
  package: {
    /** The folder or archive the run was created from, absolute. */
    source: string;
    /** The sha256 of the archive, or of nothing for a folder package. */
    sha256?: string;
  };
  workflowId: string;
  activeAgentId: string;
  autopilot: boolean;
  /** `@project` writable. */
  write: boolean;
  phase: RunRecordPhase;
  currentNodeId: string;
  stepsDone: number;
  createdAt: string;
  updatedAt: string;
  lastError?: EngineError;
}

export async function writeRunRecord(runDir: string, record: RunRecord): Promise<void> {
  await writeJsonAtomically(join(runDir, runRecordFileName), record);
}

export async function readRunRecord(runDir: string): Promise<RunRecord> {
  const path = join(runDir, runRecordFileName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SpineError({
      code: 'RUN_NOT_FOUND',
      message: `${runDir} is not a workflow run (no ${runRecordFileName})`,
      cause: error,
    });
  }
  try {
    const record = JSON.parse(text) as RunRecord;
    if (record.version !== 1 || typeof record.runId !== 'string') throw new Error('unknown version');
    return record;
  } catch (error) {
    throw new SpineError({
      code: 'RUN_RECORD_INVALID',
      message: `${path} is not a readable run record: ${(error as Error).message}`,
      cause: error,
    });
  }
}

/** The engine's phase as the run index words it. */
export function toRecordPhase(phase: 'Running' | 'WaitingUser' | 'Completed' | 'Failed'): RunRecordPhase {
  switch (phase) {
    case 'Running':
      return 'running';
    case 'WaitingUser':
      return 'waiting-user';
    case 'Completed':
      return 'completed';
    case 'Failed':
      return 'failed';
  }
}
