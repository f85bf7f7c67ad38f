import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { temporaryNameFor } from '../../tools/fs/stale-temporaries.js';

/**
 * Writes a run record whole: a temporary file beside it, then a rename, so a crash leaves the old record or
 * the new one. The temporary's name carries this process's id, so a later sweep knows an orphan.
 */
export async function writeJsonAtomically(path: string, value: unknown): Promise<void> {
  const temporary = join(dirname(path), temporaryNameFor(basename(path)));
  try {
    await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
