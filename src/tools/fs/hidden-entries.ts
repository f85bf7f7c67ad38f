import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A file Spine writes into every run folder. A folder holding it is a run record (a transcript, an audit log,
 * perhaps a secret a user typed): the tools never enter it, list it or name it, wherever it lies and whatever an
 * ignore file says. Only the current run's own folder, mounted as `@state`, is reachable, through that mount.
 */
export const runFolderMarker = '.spine-run';

/** True when `relative` (below a mount root, `/`-separated) is one of `hidden` or inside one. */
export function isBelowAny(hidden: readonly string[], relative: string): boolean {
  return hidden.some((path) => relative === path || relative.startsWith(`${path}/`));
}

/**
 * Whether a walk (`fs.list`, `fs.search`) skips an entry. This is the sandbox's decision, checked on every
 * entry, and comes before the .gitignore rules, so that no `!negation` can bring a hidden path back.
 */
export function isHiddenEntry(
  hidden: readonly string[],
  folderPath: string,
  name: string,
  relative: string,
  isFolder: boolean,
): boolean {
  if (name === '.git' || isBelowAny(hidden, relative)) return true;
  return isFolder && existsSync(`${folderPath}/${name}/${runFolderMarker}`);
}

/** True when one of the existing folders from below `rootReal` down to `segments` is a run folder. */
export async function passesThroughRunFolder(
  rootReal: string,
  segments: readonly string[],
): Promise<boolean> {
  for (let depth = 1; depth <= segments.length; depth += 1) {
    try {
      await access(join(rootReal, ...segments.slice(0, depth), runFolderMarker));
      return true;
    } catch {
      // Not a run folder, or not a folder at all (or not there yet): go on.
    }
  }
  return false;
}
