import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runFolderMarker } from '../../src/tools/fs/hidden-entries.js';
import { createSandbox, type Sandbox, secretText } from './sandbox-fixture.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox({ hide: ['@project/.spine', '@project/private'] });
  const { project } = sandbox;
  mkdirSync(join(project, '.spine', 'runs', 'r1'), { recursive: true });
  writeFileSync(join(project, '.spine', 'runs', 'r1', 'turns.jsonl'), `${secretText}\n`);
  mkdirSync(join(project, 'private'));
  writeFileSync(join(project, 'private', 'key.txt'), `${secretText}\n`);
  // A run folder chosen with --run-dir inside the project: no .gitignore of its own, only Spine's marker.
  mkdirSync(join(project, 'my-runs', 'earlier'), { recursive: true });
  writeFileSync(join(project, 'my-runs', 'earlier', runFolderMarker), '');
  writeFileSync(join(project, 'my-runs', 'earlier', 'turns.jsonl'), `${secretText}\n`);
  writeFileSync(join(project, 'my-runs', 'notes.txt'), 'visible\n');
});
afterEach(() => sandbox.cleanup());

const negations = ['!.spine/', '!.spine/**', '!private/', '!private/**', '!my-runs/**', '!.git/'];

test.each([
  ['no ignore file', undefined],
  ['a .gitignore that re-includes every hidden path', negations.join('\n')],
])('hidden paths and run folders stay hidden from fs.list and fs.search with %s', async (_, gitignore) => {
  if (gitignore !== undefined) {
    writeFileSync(join(sandbox.project, '.gitignore'), `${gitignore}\n`);
    writeFileSync(join(sandbox.project, 'private', '.gitignore'), '!*\n');
  }
  const listed = await sandbox.call('fs.list', { path: '@project', depth: 5 });
  expect(listed).toMatchObject({ ok: true });
  const entries = listed.entries as string[];
  expect(entries).toContain('my-runs/notes.txt');
  for (const entry of entries) expect(entry).not.toMatch(/^\.spine|^private|earlier/);

  const found = await sandbox.call('fs.search', { path: '@project', query: secretText });
  expect(found).toMatchObject({ ok: true, matches: [] });
  const inFolder = await sandbox.call('fs.search', { path: '@project/my-runs', query: secretText });
  expect(inFolder).toMatchObject({ ok: true, matches: [] });
});

test.each([
  '@project/.spine/runs/r1/turns.jsonl',
  '@project/private/key.txt',
  '@project/my-runs/earlier/turns.jsonl',
])('%s cannot be read, listed or written by name', async (path) => {
  const folder = path.slice(0, path.lastIndexOf('/'));
  for (const [tool, args] of [
    ['fs.read', { path }],
    ['fs.list', { path: folder }],
    ['fs.search', { path: folder, query: 'x' }],
    ['fs.write', { path, content: 'overwritten' }],
  ] as const) {
    const result = await sandbox.call(tool, args);
    expect(result, `${tool} ${JSON.stringify(args)}`).toMatchObject({
      ok: false,
      error: { code: 'E_SANDBOX_VIOLATION', details: { reason: 'hidden-path' } },
    });
  }
});

test('the run folder mounted as @state is reachable through its own mount', async () => {
  writeFileSync(join(sandbox.state, runFolderMarker), '');
  writeFileSync(join(sandbox.state, 'notes.md'), 'state notes\n');
  expect(await sandbox.call('fs.read', { path: '@state/notes.md' })).toMatchObject({ ok: true });
});
