import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Entry, ZipFile } from 'yauzl';
import { lazyModule } from '../../core/lazy-module.js';
import { SpineError } from '../../core/spine-error.js';

const yauzl = lazyModule<typeof import('yauzl')>('yauzl');

/** What an archive may hold before it is refused: enough for any real package, far from a zip bomb. */
export interface ArchiveLimits {
  entries: number;
  entryBytes: number;
  totalBytes: number;
}

export const defaultArchiveLimits: ArchiveLimits = {
  entries: 10_000,
  entryBytes: 50 * 1024 * 1024,
  totalBytes: 200 * 1024 * 1024,
};

/** Where extracted packages are kept: `$SPINE_CACHE_DIR`, else `$XDG_CACHE_HOME/spine`, else `~/.cache/spine`. */
export function defaultPackageCache(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.SPINE_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'spine');
  return join(base, 'packages');
}

/**
 * Extracts a `.bmad` / `.zip` package once into `<cache>/<sha256 of the archive>/` and returns that folder; a
 * second open of the same bytes reuses it. Extraction goes to a temporary sibling renamed into place, so the
 * cache never holds half a package. Refused with `PACKAGE_UNSAFE_ENTRY`: entries that would land outside the
 * folder (`..`, absolute, drive letters, backslashes) and links; with `PACKAGE_TOO_LARGE`: more entries than the
 * limit, or an entry or the whole over its byte limit — counted on the inflated bytes, whatever the headers say.
 */
export async function extractPackageArchive(
  archive: string,
  options: { cacheDir?: string; limits?: Partial<ArchiveLimits> } = {},
): Promise<{ root: string; sha256: string }> {
  const limits = { ...defaultArchiveLimits, ...options.limits };
  const sha256 = await hashFile(archive);
  const cache = options.cacheDir ?? defaultPackageCache();
  const root = join(cache, sha256);
  if ((await stat(root).catch(() => undefined))?.isDirectory()) return { root, sha256 };
  await mkdir(cache, { recursive: true });
  const building = join(cache, `.extract-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    await extractInto(archive, building, limits);
    try {
      await rename(building, root);
    } catch (error) {
      // Another process extracted the same archive meanwhile: theirs is as good as ours.
      if (!(await stat(root).catch(() => undefined))?.isDirectory()) throw error;
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return { root, sha256 };
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    await pipeline(createReadStream(path), hash);
  } catch (error) {
    throw new SpineError({
      code: 'PACKAGE_NOT_FOUND',
      message: `cannot read the package archive ${path}: ${(error as Error).message}`,
      cause: error,
    });
  }
  return hash.digest('hex');
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // Names are checked here, with our own error; sizes are checked by yauzl against the inflated bytes too.
    yauzl().open(
      path,
      { lazyEntries: true, autoClose: true, strictFileNames: false, validateEntrySizes: true },
      (error, zip) => (error ? reject(notAZip(path, error)) : resolve(zip)),
    );
  });
}

function notAZip(path: string, error: Error): SpineError {
  return new SpineError({
    code: 'PACKAGE_INVALID',
    message: `${path} is not a readable zip archive: ${error.message}`,
    cause: error,
  });
}

async function extractInto(archive: string, folder: string, limits: ArchiveLimits): Promise<void> {
  const zip = await openZip(archive);
  if (zip.entryCount > limits.entries) {
    zip.close();
    throw tooLarge(`${zip.entryCount} entries, over the limit of ${limits.entries}`);
  }
  await mkdir(folder, { recursive: true });
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.close();
      reject(error);
    };
    zip.on('error', (error: Error) => fail(unsafeName(error) ?? notAZip(archive, error)));
    zip.on('end', () => resolve());
    zip.on('entry', (entry: Entry) => {
      try {
        const name = safeEntryName(entry);
        if (entry.uncompressedSize > limits.entryBytes)
          throw tooLarge(`${entry.fileName} is ${entry.uncompressedSize} bytes, over ${limits.entryBytes}`);
        total += entry.uncompressedSize;
        if (total > limits.totalBytes)
          throw tooLarge(`the archive inflates to more than ${limits.totalBytes} bytes`);
        const written = name.endsWith('/')
          ? mkdir(join(folder, name), { recursive: true }).then(() => undefined)
          : writeEntry(zip, entry, join(folder, name), limits);
        written.then(() => zip.readEntry(), fail);
      } catch (error) {
        fail(error);
      }
    });
    try {
      zip.readEntry();
    } catch (error) {
      fail(error);
    }
  });
}

/** The entry's path, or `PACKAGE_UNSAFE_ENTRY` for one that would not land inside the folder as a plain file. */
function safeEntryName(entry: Entry): string {
  const name = entry.fileName;
  const unsafe = (reason: string) =>
    new SpineError({
      code: 'PACKAGE_UNSAFE_ENTRY',
      message: `the archive entry "${name}" was refused: ${reason}`,
      details: { entry: name, reason },
    });
  if (name.includes('\\')) throw unsafe('a backslash in its path');
  if (name.includes('\0')) throw unsafe('a NUL byte in its path');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw unsafe('an absolute path');
  const normalized = posix.normalize(name);
  if (normalized === '..' || normalized.startsWith('../') || name.split('/').includes('..'))
    throw unsafe('a path that leads outside the package');
  const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (mode === 0o120000) throw unsafe('a symbolic link');
  if (mode !== 0 && mode !== 0o100000 && mode !== 0o040000) throw unsafe('not a regular file or folder');
  return normalized;
}

async function writeEntry(zip: ZipFile, entry: Entry, target: string, limits: ArchiveLimits): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (error, readable) => (error ? reject(error) : resolve(readable))),
  );
  let written = 0;
  stream.on('data', (chunk: Buffer) => {
    written += chunk.length;
    // yauzl also compares the inflated size with the header's; this holds even if that check were off.
    if (written > limits.entryBytes)
      (stream as unknown as { destroy(error: Error): void }).destroy(
        tooLarge(`${entry.fileName} inflates past ${limits.entryBytes} bytes`),
      );
  });
  try {
    await pipeline(stream, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
  } catch (error) {
    if (SpineError.is(error)) throw error;
    // yauzl's own check: the entry inflates to more bytes than its header said (a zip bomb's lie).
    if (/too many bytes/i.test((error as Error).message))
      throw tooLarge(`${entry.fileName} inflates to more than its header says`);
    throw error;
  }
}

/** yauzl's own refusals of an entry name, in our words. */
function unsafeName(error: Error): SpineError | undefined {
  const refused = /^(invalid relative path|absolute path|invalid characters in fileName): ([\s\S]*)$/.exec(
    error.message,
  );
  if (refused === null) return undefined;
  return new SpineError({
    code: 'PACKAGE_UNSAFE_ENTRY',
    message: `the archive entry "${refused[2]}" was refused: ${refused[1]}`,
    details: { entry: refused[2], reason: refused[1] },
  });
}

function tooLarge(message: string): SpineError {
  return new SpineError({
    code: 'PACKAGE_TOO_LARGE',
    message: `the package archive was refused: ${message}`,
  });
}
