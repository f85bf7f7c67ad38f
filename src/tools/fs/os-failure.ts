import type { ToolErrorCode } from '../../core/error-codes.js';
import type { SpineError } from '../../core/spine-error.js';
import { fsError } from './fs-failure.js';

/** Operating-system errors a model can act on, by errno, with the words it reads. */
const namedCauses: Record<string, { code: ToolErrorCode; cause: string }> = {
  ENAMETOOLONG: { code: 'E_PATH_TOO_LONG', cause: 'a name in the path is longer than the filesystem allows' },
  EROFS: { code: 'E_READ_ONLY_FILESYSTEM', cause: 'the filesystem is mounted read-only' },
  EACCES: { code: 'E_PERMISSION_DENIED', cause: 'the operating system denied access' },
  EPERM: { code: 'E_PERMISSION_DENIED', cause: 'the operating system does not permit this' },
  ENOSPC: { code: 'E_NO_SPACE', cause: 'the disk is full' },
  EDQUOT: { code: 'E_NO_SPACE', cause: 'the disk quota is used up' },
  EFBIG: { code: 'E_NO_SPACE', cause: 'the file would be larger than the filesystem allows' },
};

/**
 * An error from Node's fs as the tool error the model sees: a named code where the cause is one the model or the
 * user can act on, `E_INTERNAL` otherwise. The message names the sandbox path the model asked for and never the
 * real path on disk (Node's own messages carry it, often a temporary file the model has never heard of).
 * Returns undefined for what is not an fs errno error.
 */
export function fromOsError(error: unknown, displayPath: string | undefined): SpineError | undefined {
  const errno = error as NodeJS.ErrnoException | undefined;
  if (!(error instanceof Error) || typeof errno?.code !== 'string' || typeof errno.syscall !== 'string') {
    return undefined;
  }
  const where = displayPath === undefined ? '' : ` ${JSON.stringify(displayPath)}`;
  const named = namedCauses[errno.code];
  if (named !== undefined) {
    return fsError(named.code, `cannot ${errno.syscall}${where}: ${named.cause} (${errno.code})`, {
      ...(displayPath === undefined ? {} : { path: displayPath }),
      errno: errno.code,
    });
  }
  if (errno.code === 'ENOENT') {
    return fsError('ENOENT', `${displayPath ?? 'the path'} does not exist`, {
      ...(displayPath === undefined ? {} : { path: displayPath }),
    });
  }
  return fsError('E_INTERNAL', `cannot ${errno.syscall}${where}: ${errno.code}`, {
    ...(displayPath === undefined ? {} : { path: displayPath }),
    errno: errno.code,
  });
}
