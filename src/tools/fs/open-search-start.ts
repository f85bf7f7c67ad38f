import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import { fsError, sandboxViolation } from './fs-failure.js';
import { GitignoreStack } from './gitignore-stack.js';
import { childPathSync, openFolderSync, readSmallFileSync } from './read-through-folder.js';
import type { ResolvedPath } from './resolve-mount-path.js';
import type { SearchFolder } from './search-tree.js';

export type SearchStart =
  | { kind: 'folder'; folder: SearchFolder }
  | { kind: 'file'; folder: SearchFolder; name: string };

/**
 * Opens where a search starts, component by component from the mount root (no symlink followed), collecting
 * the .gitignore files on the way so that rules from above the start folder apply too.
 */
export function openSearchStart(resolved: ResolvedPath): SearchStart {
  const { mount, display, realSegments } = resolved;
  let fd: number;
  try {
    fd = openSync(mount.rootReal, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    throw sandboxViolation(display, 'mount-root-changed', `the root of ${mount.name} is gone`);
  }
  const stats = fstatSync(fd);
  if (stats.dev !== mount.dev || stats.ino !== mount.ino) {
    closeSync(fd);
    throw sandboxViolation(display, 'mount-root-changed', `the root of ${mount.name} was replaced`);
  }
  const ignores = GitignoreStack.empty();
  let folder: SearchFolder = { fd, realPath: mount.rootReal, relative: '', ignores, hidden: mount.hidden };
  folder.ignores = folder.ignores.withFile('', readSmallFileSync(folder, '.gitignore'));
  for (const [index, name] of realSegments.entries()) {
    const childFd = openFolderSync(folder, name);
    if (childFd === undefined) {
      const last = index === realSegments.length - 1;
      const kind = classify(folder, name);
      if (last && kind === 'file') return { kind: 'file', folder, name };
      closeSync(folder.fd);
      if (kind === 'symlink')
        throw sandboxViolation(display, 'symlink-changed', 'a symlink on the path was not resolved');
      if (kind === 'special') throw sandboxViolation(display, 'special-file', 'refusing a special file');
      throw fsError('ENOENT', `no such file or folder: ${display}`, { path: display });
    }
    const relative = folder.relative === '' ? name : `${folder.relative}/${name}`;
    const next = { fd: childFd, realPath: `${folder.realPath}/${name}` };
    closeSync(folder.fd);
    folder = {
      ...next,
      relative,
      ignores: folder.ignores.withFile(relative, readSmallFileSync(next, '.gitignore')),
      hidden: mount.hidden,
    };
  }
  return { kind: 'folder', folder };
}

function classify(folder: SearchFolder, name: string): 'file' | 'symlink' | 'special' | 'missing' {
  try {
    const stats = lstatSync(childPathSync(folder, name));
    if (stats.isFile()) return 'file';
    if (stats.isSymbolicLink()) return 'symlink';
    return stats.isDirectory() ? 'missing' : 'special';
  } catch {
    return 'missing';
  }
}
