import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isErrnoCode, sandboxViolation } from './fs-failure.js';
import { passesThroughRunFolder } from './hidden-entries.js';
import { isHiddenPath, type Mount, type MountTable } from './mount-table.js';
import { parseMountPath } from './parse-mount-path.js';

/** A model path resolved inside its mount: the real components below the root, none of them a symlink. */
export interface ResolvedPath {
  mount: Mount;
  /** The path as the model should see it again (`@project/a/b`). */
  display: string;
  /** Components from the mount's real root; the trailing ones may not exist yet. */
  realSegments: string[];
  realPath: string;
}

/**
 * Resolves a model path: string checks first, then the real path of its longest existing prefix (so a
 * symlink inside the mount that stays inside is followed), which must lie inside the mount's real root.
 * The result is only a plan: the caller walks it with O_NOFOLLOW, so a symlink swapped in later is refused.
 */
export async function resolveMountPath(table: MountTable, raw: unknown): Promise<ResolvedPath> {
  const parsed = parseMountPath(raw, [...table.keys()]);
  const mount = table.get(parsed.mount)!;
  const { segments, display } = parsed;
  for (let keep = segments.length; keep >= 0; keep -= 1) {
    let real: string;
    try {
      real = await realpath(join(mount.rootReal, ...segments.slice(0, keep)));
    } catch (error) {
      if (isErrnoCode(error, 'ENOENT', 'ENOTDIR')) continue;
      if (isErrnoCode(error, 'ELOOP')) throw sandboxViolation(display, 'outside-mount', 'a symlink loop');
      throw error;
    }
    if (!isInside(mount.rootReal, real)) {
      // The real target is not reported: it would show the model the layout outside its sandbox.
      throw sandboxViolation(
        display,
        'outside-mount',
        `the path leads outside ${mount.name} through a symlink`,
      );
    }
    const realSegments = [
      ...relative(mount.rootReal, real).split(sep).filter(Boolean),
      ...segments.slice(keep),
    ];
    if (
      isHiddenPath(mount, realSegments.join('/')) ||
      (await passesThroughRunFolder(mount.rootReal, realSegments))
    ) {
      throw sandboxViolation(display, 'hidden-path', 'the path is hidden from the tools');
    }
    return { mount, display, realSegments, realPath: join(mount.rootReal, ...realSegments) };
  }
  throw sandboxViolation(display, 'mount-root-changed', `the root of ${mount.name} is gone`);
}

/** True when `path` is `root` or below it; `/a/proj-other` is not inside `/a/proj`. */
export function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}
