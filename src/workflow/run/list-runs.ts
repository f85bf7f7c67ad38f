import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runsFolder } from '../../engine/run-folder.js';
import { type RunRecord, readRunRecord } from './run-record.js';

/** The workflow runs of a project, newest first. Folders of other runs (`spine ask`) are not listed. */
export async function listRuns(project: string): Promise<RunRecord[]> {
  const folder = runsFolder(resolve(project));
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const records: RunRecord[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    try {
      records.push(await readRunRecord(join(folder, name)));
    } catch {
      // Not a workflow run, or a record too damaged to list.
    }
  }
  return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
