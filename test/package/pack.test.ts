import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerTurn, sentToolResults, toolCallTurn } from '../cli/cli-test-kit.js';
import { completion } from '../support/chat-wire.js';
import { startFakeRunner } from '../support/fake-runner.js';

const run = promisify(execFile);

// `npm pack` of this checkout, as `npm publish` would make it: it builds first, ships the built code only, and
// the unpacked package runs. Nothing is downloaded: the unpacked CLI borrows this checkout's node_modules.
describe('the npm package', () => {
  let folder: string;
  let files: string[];
  let unpacked: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'spine-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', folder], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const [report] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    files = (report?.files ?? []).map((file) => file.path);
    await run('tar', ['-xzf', path.join(folder, report?.filename ?? ''), '-C', folder]);
    unpacked = path.join(folder, 'package');
    await symlink(path.resolve('node_modules'), path.join(unpacked, 'node_modules'), 'dir');
  }, 120_000);

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is named spine-llm and installs the spine command', async () => {
    const manifest = JSON.parse(await readFile(path.join(unpacked, 'package.json'), 'utf8')) as {
      name: string;
      bin: Record<string, string>;
    };
    expect(manifest.name).toBe('spine-llm');
    expect(manifest.bin).toEqual({ spine: 'dist/cli/main.js' });
  });

  it('holds the built code, its types and the README, and no sources, tests or source maps', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/cli/main.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/testing/index.js',
      ]),
    );
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
    expect(files.filter((file) => /\.test\.(js|d\.ts)$/.test(file))).toEqual([]);
  });

  it('runs: the CLI prints its version, and both entry points import', async () => {
    const version = await run(process.execPath, [path.join(unpacked, 'dist/cli/main.js'), '--version']);
    const manifest = JSON.parse(await readFile(path.join(unpacked, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(version.stdout.trim()).toBe(manifest.version);
    const script =
      "const main = await import('spine-llm'); const testing = await import('spine-llm/testing');" +
      'console.log(typeof main.createModelClient, typeof testing.ScriptedModel);';
    const imported = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: unpacked });
    expect(imported.stdout.trim()).toBe('function function');
  });

  it('the bundled CLI runs its commands: help, validate, complete, and ask with fs.search', async () => {
    const cli = path.join(unpacked, 'dist/cli/main.js');
    const help = await run(process.execPath, [cli, '--help']);
    for (const command of ['complete', 'ask', 'chat', 'run', 'validate', 'models', 'doctor', 'mcp-server'])
      expect(help.stdout).toContain(command);
    const validated = await run(process.execPath, [cli, 'validate', path.resolve('examples/release-notes')]);
    expect(validated.stdout).toMatch(/^ok: release-notes 1\.0\.0/);

    const runner = await startFakeRunner();
    const project = await mkdtemp(path.join(tmpdir(), 'spine-pack-project-'));
    try {
      await writeFile(path.join(project, 'notes.txt'), 'first\nthe needle_qx7 is here\n');
      const endpoint = ['--base-url', runner.baseUrl, '--model', 'qwen3', '--max-retries', '0'];
      runner.enqueue({ body: completion('Hello!') });
      const completed = await run(process.execPath, [cli, 'complete', 'Say hello', ...endpoint, '--json']);
      expect(JSON.parse(completed.stdout)).toMatchObject({ content: 'Hello!', finishReason: 'stop' });

      runner.enqueue(
        toolCallTurn('fs_search', { query: 'needle_qx7' }),
        answerTurn('Found it in notes.txt.'),
      );
      const asked = await run(process.execPath, [cli, 'ask', 'Where is the needle?', ...endpoint], {
        cwd: project,
      });
      expect(asked.stdout).toBe('Found it in notes.txt.\n');
      expect(sentToolResults(runner.requests.at(-1))[0]).toMatchObject({
        ok: true,
        matches: [{ path: '@project/notes.txt', line: 2, text: 'the needle_qx7 is here' }],
      });
    } finally {
      await runner.close();
      await rm(project, { recursive: true, force: true });
    }
  });

  it("searches with helper threads through the bundled entry, which loads them from beside the pool's module", async () => {
    const script = `
      const { fsTools } = await import('spine-llm');
      const { searchWorkerPool } = await import('./dist/tools/fs/search-worker-pool.js');
      const root = process.cwd() + '/dist';
      const [search] = fsTools({ mounts: { project: root }, limits: { searchThreads: 2 } }).filter((tool) => tool.name === 'fs.search');
      const context = { signal: new AbortController().signal, runId: 'r', toolCallId: 'c', projectRoot: root, logger: console };
      await search.execute({ query: 'fsTools' }, context);
      await searchWorkerPool(2).whenReady();
      const result = await search.execute({ query: 'export function fsTools' }, context);
      console.log(searchWorkerPool(2).readyCount(), searchWorkerPool(2).batchesAnswered > 0, result.matches.map((match) => match.path).join(','));`;
    const searched = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: unpacked });
    expect(searched.stdout.trim()).toBe('2 true @project/tools/fs/fs-tools.js');
  });
});
