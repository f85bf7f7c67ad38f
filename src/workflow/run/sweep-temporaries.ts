import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isOrphanedTemporary } from '../../tools/fs/stale-temporaries.js';

/**
 * Removes the temporary files that killed writers left under a folder (the run folder, the artifacts tree)
 * before a run goes on: a crash never leaves litter behind once the run is resumed. Symlinks are not
 * followed; a folder that cannot be read is skipped.
 */
export async function sweepTemporaries(root: string, depth = 8): Promise<number> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const path = join(root, entry.name);
    if (entry.isDirectory() && depth > 0) removed += await sweepTemporaries(path, depth - 1);
    else if (entry.isFile() && isOrphanedTemporary(entry.name)) {
      await unlink(path).then(
        () => {
          removed += 1;
        },
        () => undefined,
      );
    }
  }
  return removed;
}
