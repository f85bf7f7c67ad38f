import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { searchWorkerPool } from '../../src/tools/fs/search-worker-pool.js';
import { createSandbox, overMcp, type Sandbox, sandboxTransport, secretText } from './sandbox-fixture.js';

let sandbox: Sandbox;
let closeTransport: (() => Promise<void>) | undefined;
let before: Record<string, string>;
const results: unknown[] = [];

beforeEach(async () => {
  sandbox = createSandbox({ limits: { searchThreads: 2 } });
  const { project, outside, base } = sandbox;
  mkdirSync(join(project, 'docs'));
  writeFileSync(join(project, 'docs', 'note.md'), 'inside\n');
  symlinkSync(join(outside, 'secret.txt'), join(project, 'link.txt'));
  symlinkSync(outside, join(project, 'linkdir'));
  symlinkSync('../secret/secret.txt', join(project, 'relative-link.txt'));
  symlinkSync(join(base, 'proj-other'), join(project, 'lookalike'));
  symlinkSync(join(outside, 'not-yet.txt'), join(project, 'dangling.txt'));
  symlinkSync('loop-b', join(project, 'loop-a'));
  symlinkSync('loop-a', join(project, 'loop-b'));
  symlinkSync('/dev/zero', join(project, 'zero'));
  linkSync(join(outside, 'secret.txt'), join(project, 'hardlink.txt'));
  execFileSync('mkfifo', [join(project, 'pipe')]);
  mkdirSync(join(project, '.git', 'hooks'), { recursive: true });
  results.length = 0;
  before = sandbox.snapshotOutside();
  if (sandboxTransport === 'mcp') {
    const viaMcp = await overMcp(sandbox);
    sandbox = viaMcp;
    closeTransport = viaMcp.close;
  }
});

afterEach(async () => {
  await closeTransport?.();
  closeTransport = undefined;
  expect(sandbox.snapshotOutside()).toEqual(before);
  for (const result of results) expect(JSON.stringify(result)).not.toContain(secretText);
  sandbox.cleanup();
});

async function expectRefused(tool: string, args: unknown, reason?: string) {
  const result = await sandbox.call(tool, args);
  results.push(result);
  expect(result.ok).toBe(false);
  const error = result.error as { code: string; details: { reason: string } };
  // Over MCP the ToolHost checks the arguments against the tool's schema first: a value of the wrong type or an
  // unknown field is refused there, before any path is looked at.
  if (sandboxTransport === 'mcp' && error.code === 'E_SCHEMA_VALIDATION') return result;
  expect(error.code).toBe('E_SANDBOX_VIOLATION');
  if (reason !== undefined) expect(error.details.reason).toBe(reason);
  return result;
}

describe('string-level escapes are refused before any file system access', () => {
  test.each([
    ['fs.read', { path: '@project/../secret/secret.txt' }, 'dot-dot'],
    ['fs.read', { path: '@project/docs/../../secret/secret.txt' }, 'dot-dot'],
    ['fs.read', { path: '@project/..' }, 'dot-dot'],
    ['fs.read', { path: '/etc/passwd' }, 'absolute-path'],
    ['fs.read', { path: '~/.ssh/id_rsa' }, 'absolute-path'],
    ['fs.read', { path: 'C:/Windows/win.ini' }, 'absolute-path'],
    ['fs.read', { path: 'secret.txt' }, 'no-mount'],
    ['fs.read', { path: '@secret/secret.txt' }, 'unknown-mount'],
    ['fs.read', { path: '@project-other/other.txt' }, 'unknown-mount'],
    ['fs.read', { path: '@project/readme.md\0../../secret/secret.txt' }, 'nul-byte'],
    ['fs.read', { path: '@project\\..\\secret\\secret.txt' }, 'backslash'],
    ['fs.read', { path: '@project/%2e%2e/secret/secret.txt' }, 'percent-encoded'],
    ['fs.read', { path: '@project/%2E%2E%2Fsecret' }, 'percent-encoded'],
    ['fs.read', { path: '@project/a\nb' }, 'control-character'],
    ['fs.read', { path: 42 }, 'not-a-string'],
    ['fs.list', { path: '@project/..' }, 'dot-dot'],
    ['fs.search', { query: 'SECRET', path: '@project/../secret' }, 'dot-dot'],
    ['fs.write', { path: '@project/../secret/new.txt', content: 'x' }, 'dot-dot'],
    ['fs.write', { path: `${'/'}tmp/spine-escape.txt`, content: 'x' }, 'absolute-path'],
  ])('%s %j', async (tool, args, reason) => {
    await expectRefused(tool, args, reason);
  });
});

describe('symlinks and links leading out', () => {
  test.each([
    ['fs.read', { path: '@project/link.txt' }, 'outside-mount'],
    ['fs.read', { path: '@project/relative-link.txt' }, 'outside-mount'],
    ['fs.read', { path: '@project/linkdir/secret.txt' }, 'outside-mount'],
    ['fs.read', { path: '@project/lookalike/other.txt' }, 'outside-mount'],
    ['fs.read', { path: '@project/loop-a' }, 'outside-mount'],
    ['fs.read', { path: '@project/zero' }, 'outside-mount'],
    ['fs.read', { path: '@project/hardlink.txt' }, 'hard-link'],
    ['fs.list', { path: '@project/linkdir' }, 'outside-mount'],
    ['fs.list', { path: '@project/lookalike', depth: 3 }, 'outside-mount'],
    ['fs.search', { query: 'SECRET', path: '@project/linkdir' }, 'outside-mount'],
    ['fs.search', { query: 'SECRET', path: '@project/hardlink.txt' }, undefined],
    ['fs.write', { path: '@project/link.txt', content: 'pwned' }, 'outside-mount'],
    ['fs.write', { path: '@project/linkdir/new.txt', content: 'pwned' }, 'outside-mount'],
    ['fs.write', { path: '@project/linkdir/deep/er/new.txt', content: 'pwned' }, 'outside-mount'],
    ['fs.write', { path: '@project/dangling.txt', content: 'pwned' }, 'symlink-changed'],
    ['fs.write', { path: '@project/hardlink.txt', content: 'pwned' }, 'hard-link'],
    [
      'fs.apply_patch',
      { path: '@project/link.txt', operation: 'replace', edits: [{ search: 'TOP', replace: 'X' }] },
      'outside-mount',
    ],
    [
      'fs.apply_patch',
      { path: '@project/hardlink.txt', operation: 'replace', edits: [{ search: 'TOP', replace: 'X' }] },
      'hard-link',
    ],
  ])('%s %j', async (tool, args, reason) => {
    if (tool === 'fs.search' && reason === undefined) {
      // A hard-linked file named directly is skipped by search: no match, nothing of it returned.
      const result = await sandbox.call(tool, args);
      results.push(result);
      expect(result).toMatchObject({ ok: true, matches: [], stats: { filesScanned: 0 } });
      return;
    }
    await expectRefused(tool, args, reason);
  });

  test('a search over the whole project skips symlinks and hard links: the secret never appears', async () => {
    const result = await sandbox.call('fs.search', { query: 'SECRET', ignoreCase: true });
    results.push(result);
    expect(result).toMatchObject({ ok: true, matches: [] });
  });

  test('a deep listing does not enter symlinked folders', async () => {
    const result = await sandbox.call('fs.list', { path: '@project', depth: 5 });
    results.push(result);
    expect(result.ok).toBe(true);
    expect(result.entries).not.toContain('linkdir/secret.txt');
    expect((result.entries as string[]).some((entry) => entry.startsWith('.git'))).toBe(false);
  });
});

describe('special files, read-only mounts and protected paths', () => {
  test('a FIFO is refused without blocking', async () => {
    await expectRefused('fs.read', { path: '@project/pipe' }, 'special-file');
    await expectRefused('fs.write', { path: '@project/pipe', content: 'x' }, 'special-file');
  });

  test('a unix socket is refused', async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(join(sandbox.project, 'sock'), resolve));
    try {
      await expectRefused('fs.read', { path: '@project/sock' }, 'special-file');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test.each([
    ['fs.write', { path: '@pkg/workflow.graph.json', content: '{}' }, 'read-only-mount'],
    ['fs.write', { path: '@pkg/new/file.md', content: 'x' }, 'read-only-mount'],
    [
      'fs.apply_patch',
      { path: '@pkg/workflow.graph.json', operation: 'replace', edits: [{ search: 'nodes', replace: 'x' }] },
      'read-only-mount',
    ],
    [
      'fs.write',
      { path: '@project/.git/hooks/pre-commit', content: '#!/bin/sh\ncat /etc/passwd\n' },
      'protected-path',
    ],
    ['fs.write', { path: '@project/.git/config', content: '[core]\n' }, 'protected-path'],
    ['fs.write', { path: '@state/audit.jsonl', content: '{"forged":true}\n' }, 'protected-path'],
  ])('%s %j', async (tool, args, reason) => {
    await expectRefused(tool, args, reason);
    expect(existsSync(join(sandbox.pkg, 'new'))).toBe(false);
    expect(existsSync(join(sandbox.project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(sandbox.pkg, 'workflow.graph.json'), 'utf8')).toBe('{"nodes":[]}\n');
  });

  test('a read-only project refuses writes', async () => {
    const readOnly = createSandbox({ readOnly: true });
    try {
      const result = await readOnly.call('fs.write', { path: '@project/new.md', content: 'x' });
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'E_SANDBOX_VIOLATION', details: { reason: 'read-only-mount' } },
      });
      expect(existsSync(join(readOnly.project, 'new.md'))).toBe(false);
    } finally {
      readOnly.cleanup();
    }
  });

  test('a mount root swapped for another folder is refused', async () => {
    renameSync(sandbox.project, `${sandbox.project}-moved`);
    mkdirSync(sandbox.project);
    try {
      await expectRefused('fs.read', { path: '@project/readme.md' }, 'mount-root-changed');
      await expectRefused('fs.write', { path: '@project/x.md', content: 'x' }, 'mount-root-changed');
      expect(existsSync(join(sandbox.project, 'x.md'))).toBe(false);
    } finally {
      rmSync(sandbox.project, { recursive: true });
      renameSync(`${sandbox.project}-moved`, sandbox.project);
    }
  });

  test('every refusal is in the audit log', async () => {
    await expectRefused('fs.read', { path: '@project/link.txt' });
    const log = readFileSync(sandbox.auditPath, 'utf8');
    expect(log).toContain('"errorCode":"E_SANDBOX_VIOLATION"');
    expect(log).not.toContain(secretText);
  });
});

describe('races: a second process swapping a symlink in and out while the tools run', () => {
  // Searches here run on helper threads (fs.search's default on two or more cores), once they are up.
  beforeAll(() => searchWorkerPool(2).whenReady());

  // The exact check-then-use windows are hit on purpose in escape-race-window.test.ts; this is the stress
  // version, a real second process racing the tools. Whether it lands in a window on a given run is luck, so
  // it asserts only what must hold on every run: nothing outside the sandbox is read or written.
  function startSwapper(kind: 'folder' | 'file') {
    const { project, outside } = sandbox;
    const target = kind === 'folder' ? outside : join(outside, 'secret.txt');
    if (kind === 'folder') {
      mkdirSync(join(project, 'swap'));
      writeFileSync(join(project, 'swap', 'secret.txt'), 'innocent\n');
    } else {
      writeFileSync(join(project, 'swap'), 'innocent\n');
    }
    // A state machine rather than a fixed rename sequence: a write may create `swap` anew while the real one
    // is put away, or rename its temporary file over the swapped-in symlink (which replaces the link, not its
    // target), so the link is made again whenever it is gone and the swapping never stalls.
    const script = `
      const { lstatSync, renameSync, rmSync, symlinkSync } = require('node:fs'); const { join } = require('node:path');
      const [dir, target] = process.argv.slice(1); const at = (name) => join(dir, name);
      const kind = (name) => { try { return lstatSync(at(name)).isSymbolicLink() ? 'link' : 'real'; } catch { return 'none'; } };
      process.stdout.write('ready\\n');
      for (;;) {
        try {
          const now = kind('swap');
          if (now !== 'link' && kind('.hold-link') === 'none') symlinkSync(target, at('.hold-link'));
          else if (now === 'link') renameSync(at('swap'), at('.hold-link'));
          else if (now === 'none') renameSync(at(kind('.hold-real') === 'real' ? '.hold-real' : '.hold-link'), at('swap'));
          else if (kind('.hold-real') === 'real') rmSync(at('swap'), { recursive: true, force: true });
          else { renameSync(at('swap'), at('.hold-real')); renameSync(at('.hold-link'), at('swap')); }
        } catch {}
      }`;
    const child = spawn(process.execPath, ['-e', script, project, target], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    return { ready, stop: () => child.kill('SIGKILL') };
  }

  async function hammer(calls: () => Promise<Record<string, unknown>>[], rounds: number) {
    for (let round = 0; round < rounds; round += 1) {
      for (const result of await Promise.all(calls())) {
        results.push(result);
        expect(JSON.stringify(result)).not.toContain(secretText);
        const code = result.ok ? 'ok' : (result.error as { code: string }).code;
        expect(['ok', 'ENOENT', 'E_SANDBOX_VIOLATION', 'E_PRECONDITION_FAILED']).toContain(code);
      }
    }
  }

  test('a folder swapped with a symlink to the outside: reads, lists, searches and writes never escape', async () => {
    const swapper = startSwapper('folder');
    await swapper.ready;
    try {
      await hammer(
        () => [
          sandbox.call('fs.read', { path: '@project/swap/secret.txt' }),
          sandbox.call('fs.list', { path: '@project/swap' }),
          sandbox.call('fs.search', { query: 'SECRET', ignoreCase: true, path: '@project/swap' }),
          sandbox.call('fs.write', { path: '@project/swap/out.txt', content: 'written inside' }),
          sandbox.call('fs.write', { path: '@project/swap/new/deeper.txt', content: 'written inside' }),
        ],
        150,
      );
    } finally {
      swapper.stop();
    }
  });

  test('a file swapped with a symlink to the secret: reads and writes never escape', async () => {
    const swapper = startSwapper('file');
    await swapper.ready;
    try {
      await hammer(
        () => [
          sandbox.call('fs.read', { path: '@project/swap' }),
          sandbox.call('fs.write', { path: '@project/swap', content: 'replaced inside\n' }),
          sandbox.call('fs.apply_patch', {
            path: '@project/swap',
            operation: 'replace',
            edits: [{ search: 'inside', replace: 'in' }],
          }),
          sandbox.call('fs.search', { query: 'TOP-SECRET' }),
        ],
        200,
      );
    } finally {
      swapper.stop();
    }
  });
});
