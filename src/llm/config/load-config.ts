import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import { configTooLarge, maxConfigChars, parseConfig } from './parse-config.js';
import type { SpineConfig } from './spine-config.js';

/** Where a config is looked for in a folder, in order. */
export const configFileNames = [
  'spine.yaml',
  'spine.yml',
  path.join('config', 'models.yaml'),
  path.join('config', 'models.yml'),
];

/**
 * The config file of a folder: `spine.yaml` (or `spine.yml`, `config/models.yaml`) in it, undefined when it has
 * none. Parent folders are not searched, so a stray file higher up never changes which models a run uses.
 */
export async function findConfigFile(cwd: string): Promise<string | undefined> {
  const folder = path.resolve(cwd);
  for (const name of configFileNames) {
    const candidate = path.join(folder, name);
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

/** Reads and validates a config file; errors name the file as given (relative paths stay relative). */
export async function loadConfig(file: string): Promise<SpineConfig> {
  let text: string;
  let size: number;
  try {
    size = (await stat(file)).size;
    // Refused before it is read: reading a huge file whole would already cost its size in memory.
    text = size > maxConfigChars * 4 ? '' : await readFile(file, 'utf8');
  } catch (error) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `${file}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      details: { file, line: 0, path: '' },
      cause: error,
    });
  }
  if (size > maxConfigChars * 4) throw configTooLarge(file, `${size} bytes`);
  return parseConfig(text, file);
}

async function isFile(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}
