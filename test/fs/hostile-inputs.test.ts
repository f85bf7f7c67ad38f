import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { maxRulesPerFile } from '../../src/tools/fs/gitignore-stack.js';
import { createSandbox, type Sandbox } from './sandbox-fixture.js';

// Inputs a hostile model or file tree supplies. Each of these froze the event loop for seconds to minutes
// before; a test that finishes (under vitest's 5 s limit) with the right answer is the evidence.
let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox({ limits: { writeBytes: 64 * 1024 * 1024, scanBytes: 64 * 1024 * 1024 } });
});
afterEach(() => sandbox.cleanup());

test('a catastrophic-backtracking regex runs in linear time, and still finds what it should', async () => {
  writeFileSync(join(sandbox.project, 'evil.txt'), `${'a'.repeat(28)}b\nxx aaaa\n`);
  const result = await sandbox.call('fs.search', { path: '@project', query: '(a+)+$', regex: true });
  expect(result).toMatchObject({ ok: true, matches: [{ path: '@project/evil.txt', line: 2 }] });
});

test('a regex RE2 cannot run safely (lookaround, backreference) is refused with the reason', async () => {
  for (const query of ['(?<=a)b', '(a)\\1']) {
    const result = await sandbox.call('fs.search', { path: '@project', query, regex: true });
    expect(result).toMatchObject({ ok: false, error: { code: 'E_SCHEMA_VALIDATION' } });
    expect(JSON.stringify(result)).toMatch(/RE2 syntax/);
  }
});

test('a unified diff of many hunks on a file of a million lines applies in time', async () => {
  const lines = Array.from({ length: 1_000_000 }, (_, index) => (index % 1000 === 0 ? `mark ${index}` : '}'));
  writeFileSync(join(sandbox.project, 'huge.txt'), `${lines.join('\n')}\n`);
  // 100 hunks whose line numbers are all wrong (a model's usual mistake), each with 30 lines of context that
  // occur all over the file before its one unique line: the old sliding search compared those 30 lines at
  // every line of the file, for every hunk.
  const context = ' }\n'.repeat(30);
  const hunks = Array.from({ length: 100 }, (_, hunk) => {
    const at = (hunk + 1) * 5000;
    return `@@ -1,31 +1,31 @@\n${context}-mark ${at}\n+changed ${at}\n`;
  }).join('');
  const result = await sandbox.call('fs.apply_patch', {
    path: '@project/huge.txt',
    operation: 'unifiedDiff',
    diff: `--- a/huge.txt\n+++ b/huge.txt\n${hunks}`,
  });
  expect(result, JSON.stringify(result).slice(0, 300)).toMatchObject({ ok: true });
  const read = await sandbox.call('fs.search', {
    path: '@project/huge.txt',
    query: 'changed ',
    maxMatches: 1000,
  });
  expect((read.matches as unknown[]).length).toBe(100);
});

test('an ambiguous hunk is still refused, with the places it matched counted up to two', async () => {
  writeFileSync(join(sandbox.project, 'same.txt'), 'x\ny\nx\ny\n');
  const result = await sandbox.call('fs.apply_patch', {
    path: '@project/same.txt',
    operation: 'unifiedDiff',
    diff: '@@ -9,2 +9,2 @@\n x\n-y\n+z\n',
  });
  expect(result).toMatchObject({
    ok: false,
    error: { code: 'E_PRECONDITION_FAILED', details: { occurrences: 2 } },
  });
});

test(`a .gitignore of 20,000 rules is read up to ${maxRulesPerFile} and does not stall fs.list`, async () => {
  const rules = Array.from({ length: 20_000 }, (_, index) => `folder${index}/**/*.tmp${index}`);
  rules.push('listed-only-without-the-cap.txt');
  writeFileSync(join(sandbox.project, '.gitignore'), `${rules.join('\n')}\n`);
  for (let index = 0; index < 300; index += 1) writeFileSync(join(sandbox.project, `f${index}.txt`), 'x\n');
  writeFileSync(join(sandbox.project, 'listed-only-without-the-cap.txt'), 'x\n');
  const result = await sandbox.call('fs.list', { path: '@project' });
  expect(result).toMatchObject({ ok: true });
  expect(result.entries).toContain('f299.txt');
  // The rule past the cap was not read.
  expect(result.entries).toContain('listed-only-without-the-cap.txt');
});

test('the search time limit holds in a folder of 20,000 entries that are all ignored', async () => {
  const { mkdirSync } = await import('node:fs');
  const quick = createSandbox({ limits: { searchTimeMs: 1 } });
  try {
    const folder = join(quick.project, 'many');
    mkdirSync(folder);
    writeFileSync(join(quick.project, '.gitignore'), '*.log\n');
    for (let index = 0; index < 20_000; index += 1) writeFileSync(join(folder, `f${index}.log`), 'hello\n');
    const result = await quick.call('fs.search', { path: '@project/many', query: 'absent' });
    // Before, the limit was only checked before a file was read, so a folder of ignored entries ran to its end.
    expect(result).toMatchObject({
      ok: true,
      truncated: true,
      hint: expect.stringMatching(/time limit of 1 ms/),
    });
  } finally {
    quick.cleanup();
  }
});
