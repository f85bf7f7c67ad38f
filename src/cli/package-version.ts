import { readFileSync } from 'node:fs';

/** The installed package's version, read once from its package.json (two folders up from src/cli or dist/cli). */
export function readPackageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}
