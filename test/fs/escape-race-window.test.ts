import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createSandbox, type Sandbox, secretText } from './sandbox-fixture.js';

// The check-then-use window, hit on purpose rather than by luck. The file system calls the sandbox makes are
// passed through to the real ones; one of them, chosen per test, is followed (or preceded) by a real swap of
// a real folder or file for a real symlink to the outside. Without O_NOFOLLOW on the walk and the inode check
// after open, these reads would return the secret: every test here fails if that protection is removed.
// The stochastic version (a second process swapping in a loop) is in escape.test.ts.

type Moment = 'before-open' | 'after-lstat';
const injection = vi.hoisted(() => ({
  armed: undefined as undefined | { moment: Moment; name: string; swap: () => void },
  fired: 0,
}));

function fire(moment: Moment, path: unknown): void {
  const armed = injection.armed;
  if (armed === undefined || armed.moment !== moment || basename(String(path)) !== armed.name) return;
  injection.armed = undefined;
  injection.fired += 1;
  armed.swap();
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof actual.open = async (path, ...rest) => {
    fire('before-open', path);
    return actual.open(path, ...rest);
  };
  const lstat = (async (path: Parameters<typeof actual.lstat>[0], ...rest: unknown[]) => {
    const stats = await (actual.lstat as (...args: unknown[]) => Promise<unknown>)(path, ...rest);
    fire('after-lstat', path);
    return stats;
  }) as typeof actual.lstat;
  return { ...actual, default: { ...actual, open, lstat }, open, lstat };
});

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const openSync: typeof actual.openSync = (path, ...rest) => {
    fire('before-open', path);
    return actual.openSync(path, ...rest);
  };
  const lstatSync = ((path: Parameters<typeof actual.lstatSync>[0], ...rest: unknown[]) => {
    const stats = (actual.lstatSync as (...args: unknown[]) => unknown)(path, ...rest);
    fire('after-lstat', path);
    return stats;
  }) as typeof actual.lstatSync;
  return { ...actual, default: { ...actual, openSync, lstatSync }, openSync, lstatSync };
});

let sandbox: Sandbox;
let before: Record<string, string>;

beforeEach(() => {
  // One thread: the injected swap hooks this thread's file system calls, and a helper thread makes its own.
  // The helpers go through the same descriptor-relative opens; escape.test.ts races them with a real swapper.
  sandbox = createSandbox({ limits: { searchThreads: 1 } });
  injection.armed = undefined;
  injection.fired = 0;
  before = sandbox.snapshotOutside();
});

afterEach(() => {
  injection.armed = undefined;
  expect(sandbox.snapshotOutside()).toEqual(before);
  sandbox.cleanup();
});

/** `@project/swap` as a real folder now, a symlink to the secret folder at the chosen moment. */
function folderSwappedAt(moment: Moment) {
  const { project, outside } = sandbox;
  mkdirSync(join(project, 'swap'));
  writeFileSync(join(project, 'swap', 'secret.txt'), 'innocent\n');
  injection.armed = {
    moment,
    name: 'swap',
    swap: () => {
      renameSync(join(project, 'swap'), join(project, '.held-real'));
      symlinkSync(outside, join(project, 'swap'));
    },
  };
}

/** `@project/swap` as a real file now, a symlink to the secret file at the chosen moment. */
function fileSwappedAt(moment: Moment) {
  const { project, outside } = sandbox;
  writeFileSync(join(project, 'swap'), 'innocent\n');
  injection.armed = {
    moment,
    name: 'swap',
    swap: () => {
      renameSync(join(project, 'swap'), join(project, '.held-real'));
      symlinkSync(join(outside, 'secret.txt'), join(project, 'swap'));
    },
  };
}

async function expectSwapRefused(tool: string, args: unknown) {
  const result = await sandbox.call(tool, args);
  expect(injection.fired).toBe(1);
  expect(JSON.stringify(result)).not.toContain(secretText);
  expect(result).toMatchObject({
    ok: false,
    error: { code: 'E_SANDBOX_VIOLATION', details: { reason: 'symlink-changed' } },
  });
}

describe('a folder on the path becomes a symlink after the path was resolved', () => {
  test.each([
    ['fs.read', { path: '@project/swap/secret.txt' }],
    ['fs.list', { path: '@project/swap' }],
    ['fs.search', { query: 'SECRET', ignoreCase: true, path: '@project/swap' }],
    ['fs.write', { path: '@project/swap/out.txt', content: 'written inside' }],
    ['fs.write', { path: '@project/swap/new/deeper.txt', content: 'written inside' }],
    [
      'fs.apply_patch',
      { path: '@project/swap/secret.txt', operation: 'replace', edits: [{ search: 'inn', replace: 'x' }] },
    ],
  ])('%s %j is refused', async (tool, args) => {
    folderSwappedAt('before-open');
    await expectSwapRefused(tool, args);
  });
});

describe('a file becomes a symlink after it was checked, before it is opened', () => {
  test.each([
    ['fs.read', { path: '@project/swap' }],
    [
      'fs.apply_patch',
      { path: '@project/swap', operation: 'replace', edits: [{ search: 'inn', replace: 'x' }] },
    ],
    ['fs.write', { path: '@project/swap', content: 'replaced inside\n' }],
  ])('%s %j is refused', async (tool, args) => {
    fileSwappedAt('before-open');
    await expectSwapRefused(tool, args);
  });

  test('fs.read right after its lstat is refused', async () => {
    fileSwappedAt('after-lstat');
    await expectSwapRefused('fs.read', { path: '@project/swap' });
  });

  test('fs.search over the project never reads a file swapped for a symlink before its open', async () => {
    fileSwappedAt('before-open');
    const result = await sandbox.call('fs.search', { query: 'SECRET', ignoreCase: true });
    expect(injection.fired).toBe(1);
    expect(JSON.stringify(result)).not.toContain(secretText);
    expect(result).toMatchObject({ ok: true, matches: [] });
  });
});
