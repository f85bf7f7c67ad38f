import { afterEach, beforeEach, expect, test } from 'vitest';
import { fromOsError } from '../../src/tools/fs/os-failure.js';
import { createSandbox, type Sandbox } from './sandbox-fixture.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
afterEach(() => sandbox.cleanup());

test('an over-long name is E_PATH_TOO_LONG naming the sandbox path, never the real one', async () => {
  const path = `@project/${'n'.repeat(300)}.txt`;
  for (const [tool, args] of [
    ['fs.write', { path, content: 'x' }],
    ['fs.read', { path }],
    ['fs.list', { path }],
  ] as const) {
    const result = await sandbox.call(tool, args);
    expect(result, tool).toMatchObject({ ok: false, error: { code: 'E_PATH_TOO_LONG', details: { path } } });
    expect(JSON.stringify(result)).not.toContain(sandbox.project);
    expect(JSON.stringify(result)).not.toContain('spine-tmp');
  }
});

function errnoError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, ${syscall} '${path}'`), { code, syscall, path });
}

test.each([
  ['EROFS', 'E_READ_ONLY_FILESYSTEM', /read-only/],
  ['ENOSPC', 'E_NO_SPACE', /disk is full/],
  ['EDQUOT', 'E_NO_SPACE', /quota/],
  ['EACCES', 'E_PERMISSION_DENIED', /denied/],
  ['EIO', 'E_INTERNAL', /EIO/],
])('%s from the disk is %s, with the cause and without the real temporary path', (errno, code, cause) => {
  const real = '/srv/secret-home/proj/.a.txt.123-abcdefabcdef.spine-tmp';
  const error = fromOsError(errnoError(errno, 'open', real), '@project/a.txt');
  expect(error?.code).toBe(code);
  expect(error?.message).toMatch(cause);
  expect(error?.message).toContain('@project/a.txt');
  expect(JSON.stringify({ message: error?.message, details: error?.details })).not.toContain('/srv/');
});

test('what is not an fs error is left to the caller', () => {
  expect(fromOsError(new TypeError('x is undefined'), '@project/a')).toBeUndefined();
});
