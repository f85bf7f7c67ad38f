import { randomBytes } from 'node:crypto';

/**
 * A run id that sorts by start time and is short enough to type into `spine audit`:
 * `20250102-100000-3f9a1c` (UTC).
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
