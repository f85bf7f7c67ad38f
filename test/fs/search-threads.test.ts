import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SearchWorkerPool, searchWorkerPool } from '../../src/tools/fs/search-worker-pool.js';
import { createSandbox, type Sandbox, secretText } from './sandbox-fixture.js';

// fs.search hands the files of a folder search to helper threads. These tests run the same searches on the
// calling thread alone (searchThreads: 1) and with ready helpers, on a real tree, and compare the results
// whole: the helpers may never change what a search finds, in what order, or where it stops.

const helperCount = 2;
const pool = searchWorkerPool(helperCount);
let oneThread: Sandbox;
let helped: Sandbox;

/** 14 folders of 30 files (some nested), with hits spread unevenly, binaries, links, ignored and large files. */
function buildTree(project: string, outside: string): void {
  writeFileSync(join(project, '.gitignore'), 'ignored/\n*.log\n');
  for (let folder = 0; folder < 14; folder += 1) {
    const dir = join(project, `pkg${String(folder).padStart(2, '0')}`, folder % 3 === 0 ? 'nested' : '');
    mkdirSync(dir, { recursive: true });
    for (let file = 0; file < 30; file += 1) {
      const lines: string[] = [];
      for (let line = 0; line < 40; line += 1) {
        const hit = (folder * 31 + file * 7 + line * 13) % 97 === 0;
        lines.push(
          hit ? `line ${line} has the Needle in ${folder}/${file}` : `filler ${folder} ${file} ${line}`,
        );
      }
      writeFileSync(join(dir, `f${String(file).padStart(2, '0')}.txt`), `${lines.join('\n')}\n`);
    }
    writeFileSync(join(dir, 'blob.bin'), Buffer.from('Needle\0binary'));
    writeFileSync(join(dir, 'debug.log'), 'Needle in an ignored log\n');
  }
  mkdirSync(join(project, 'ignored'));
  writeFileSync(join(project, 'ignored', 'x.txt'), 'Needle ignored\n');
  writeFileSync(join(project, 'pkg01', 'big.txt'), `Needle ${'x'.repeat(70_000)}\n`);
  symlinkSync(join(outside, 'secret.txt'), join(project, 'pkg02', 'link.txt'));
  writeFileSync(join(project, 'pkg04', 'shared.txt'), 'Needle hard-linked\n');
  linkSync(join(project, 'pkg04', 'shared.txt'), join(project, 'pkg05', 'also-shared.txt'));
  writeFileSync(join(project, 'pkg06', 'secret-copy.txt'), `${secretText} Needle\n`);
}

/** The descriptors this process has open on anything inside a test sandbox. */
function sandboxDescriptors(): string[] {
  const found: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('/spine-fs-')) found.push(target);
    } catch {
      // The descriptor readdir itself used, closed by now.
    }
  }
  return found.sort();
}

const limits = { searchFileBytes: 64 * 1024, searchMatchesMax: 5000, searchOutputBytes: 4 * 1024 * 1024 };

beforeAll(async () => {
  oneThread = createSandbox({ limits: { ...limits, searchThreads: 1 } });
  buildTree(oneThread.project, oneThread.outside);
  helped = createSandbox({ limits: { ...limits, searchThreads: helperCount } });
  buildTree(helped.project, helped.outside);
  await pool.whenReady();
  expect(pool.readyCount()).toBe(helperCount);
});

afterAll(() => {
  oneThread.cleanup();
  helped.cleanup();
});

/** The result on both sandboxes: paths are mount paths, so they compare equal. */
async function searchBoth(args: Record<string, unknown>) {
  const answeredBefore = pool.batchesAnswered;
  const alone = await oneThread.call('fs.search', args);
  const answeredAlone = pool.batchesAnswered;
  const withHelpers = await helped.call('fs.search', args);
  return {
    alone,
    withHelpers,
    helperBatches: pool.batchesAnswered - answeredAlone,
    stray: answeredAlone - answeredBefore,
  };
}

describe('fs.search with helper threads', () => {
  test.each([
    ['a literal', { query: 'Needle', maxMatches: 5000 }],
    [
      'ignoring case, with context',
      { query: 'needle', ignoreCase: true, before: 2, after: 1, maxMatches: 5000 },
    ],
    ['a regular expression', { query: 'line \\d+ has', regex: true, maxMatches: 5000 }],
    ['a glob and a folder', { query: 'Needle', path: '@project/pkg03', glob: '*.txt', maxMatches: 5000 }],
    ['a match limit reached mid-tree', { query: 'Needle', maxMatches: 23 }],
    ['a match limit of exactly every match', { query: 'has the Needle in 1', maxMatches: 5000 }],
  ])('%s: the same matches, order, stats and truncation as one thread', async (_, args) => {
    const { alone, withHelpers, helperBatches, stray } = await searchBoth(args);
    expect(alone).toMatchObject({ ok: true });
    expect((alone.matches as unknown[]).length).toBeGreaterThan(0);
    expect(withHelpers).toEqual(alone);
    expect(stray).toBe(0);
    expect(helperBatches).toBeGreaterThan(0);
  });

  test('the exact-limit case is not truncated, the mid-tree one is, with the first matches in walk order', async () => {
    const all = await helped.call('fs.search', { query: 'Needle', maxMatches: 5000 });
    const limited = await helped.call('fs.search', { query: 'Needle', maxMatches: 23 });
    expect(all.truncated).toBe(false);
    expect(limited).toMatchObject({ truncated: true, stats: { matchesFound: 23 } });
    expect(limited.matches).toEqual((all.matches as unknown[]).slice(0, 23));
    const exact = await helped.call('fs.search', {
      query: 'Needle',
      maxMatches: (all.matches as unknown[]).length,
    });
    expect(exact).toMatchObject({ truncated: false });
  });

  test('skips binaries, symlinks, hard links, ignored and oversized files as one thread does', async () => {
    const result = await helped.call('fs.search', { query: 'Needle', maxMatches: 5000 });
    const paths = new Set((result.matches as { path: string }[]).map((match) => match.path));
    for (const skipped of ['blob.bin', 'debug.log', 'ignored/', 'big.txt', 'link.txt', 'shared.txt']) {
      expect([...paths].some((path) => path.includes(skipped))).toBe(false);
    }
    expect(paths.has('@project/pkg06/secret-copy.txt')).toBe(true);
  });

  test('leaves no descriptor open, whether a search completes, hits its limit, runs out of time or is cancelled', async () => {
    const before = sandboxDescriptors();
    const search = helped.tools.get('fs.search')!;
    const context = { runId: 'r', toolCallId: 'c', projectRoot: helped.project, logger: console };
    for (let round = 0; round < 3; round += 1) {
      await helped.call('fs.search', { query: 'Needle', maxMatches: 5000 });
      await helped.call('fs.search', { query: 'Needle', maxMatches: 3 });
      const cancelled = await search.execute(
        { query: 'Needle' },
        { ...context, signal: AbortSignal.abort() },
      );
      expect(cancelled).toMatchObject({ ok: true, truncated: true, hint: 'The search was cancelled.' });
    }
    const quick = createSandbox({ limits: { ...limits, searchThreads: helperCount, searchTimeMs: 1 } });
    try {
      buildTree(quick.project, quick.outside);
      // Enough files that no machine searches them within the 1 ms budget (about 5 µs each on a fast one).
      mkdirSync(join(quick.project, 'bulk'));
      for (let file = 0; file < 4000; file += 1)
        writeFileSync(join(quick.project, 'bulk', `b${file}.txt`), 'Needle\n');
      const timed = await quick.call('fs.search', { query: 'Needle', maxMatches: 5000 });
      expect(timed).toMatchObject({ ok: true, truncated: true });
      expect(timed.hint).toMatch(/time limit of 1 ms/);
    } finally {
      quick.cleanup();
    }
    expect(sandboxDescriptors()).toEqual(before);
  });

  test('helpers stopped mid-search: their batches are searched on the calling thread, the result unchanged', async () => {
    const expected = await oneThread.call('fs.search', { query: 'Needle', maxMatches: 5000 });
    for (let round = 0; round < 3; round += 1) {
      await pool.whenReady();
      const searching = helped.call('fs.search', { query: 'Needle', maxMatches: 5000 });
      await new Promise((resolve) => setImmediate(resolve));
      await pool.close();
      expect(await searching).toEqual(expected);
      searchWorkerPool(helperCount);
    }
    await pool.whenReady();
    expect(pool.readyCount()).toBe(helperCount);
  });
});

describe('helpers that cannot be started', () => {
  test('leave a pool with none ready, which takes no batch: the queue then searches on the calling thread', async () => {
    const noThreads = new SearchWorkerPool(() => {
      throw new Error('no threads here');
    });
    noThreads.growTo(2);
    await noThreads.whenReady();
    expect(noThreads.readyCount()).toBe(0);
    expect(noThreads.run({} as never)).toBeUndefined();
  });
});

describe('a process that searches with helpers', () => {
  test('stays alive while the helpers search, and exits once the search is done', async () => {
    const once = await helped.call('fs.search', { query: 'Needle', maxMatches: 5000 });
    const loader = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href;
    const tools = pathToFileURL(resolve('src/tools/fs/fs-tools.ts')).href;
    const script = `
      const { fsTools } = await import(${JSON.stringify(tools)});
      const [search] = fsTools({ mounts: { project: process.argv[1] }, limits: { searchThreads: 2, searchMatchesMax: 5000, searchFileBytes: 65536 } })
        .filter((tool) => tool.name === 'fs.search');
      const context = { signal: new AbortController().signal, runId: 'r', toolCallId: 'c', projectRoot: process.argv[1], logger: console };
      let total = 0;
      for (let round = 0; round < 3; round += 1) {
        const result = await search.execute({ query: 'Needle', maxMatches: 5000 }, context);
        total += result.matches.length;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      console.log('matches', total);`;
    const child = spawnSync(
      process.execPath,
      ['--import', loader, '--input-type=module', '-e', script, helped.project],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toBe(`matches ${3 * (once.matches as unknown[]).length}\n`);
  });
});
