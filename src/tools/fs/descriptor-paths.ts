import { constants, existsSync } from 'node:fs';
import { join } from 'node:path';

// Node has no openat(2). On Linux, `/proc/self/fd/N/name` gives the same guarantee: `name` is looked up in
// the folder the descriptor holds, whatever has since been renamed or swapped for a symlink on the way
// there. Descriptors are process-wide, so the path means the same in every thread. Elsewhere the real path
// is used, which leaves a narrow check-then-use window (documented).
const useDescriptorPaths = existsSync('/proc/self/fd');

export const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
// O_NONBLOCK: opening a FIFO that was swapped in after the lstat must not wait for a writer.
export const fileFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The path of `name` inside the folder open as `fd` (whose real path was `realPath`), as the kernel should resolve it. */
export function descriptorChildPath(fd: number, realPath: string, name: string): string {
  return useDescriptorPaths ? `/proc/self/fd/${fd}/${name}` : join(realPath, name);
}
