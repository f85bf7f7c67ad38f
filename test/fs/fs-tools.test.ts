import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readAuditLog } from '../../src/tools/audit-log-reader.js';
import { formatAuditLog } from '../../src/tools/format-audit-log.js';
import { createSandbox, type Sandbox } from './sandbox-fixture.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox({
    limits: { readBytes: 1000, previewBytes: 100, writeBytes: 5000, listEntries: 5 },
  });
});
afterEach(() => sandbox.cleanup());

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const numbered = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

describe('fs.read', () => {
  test('a small file whole, with bytes and sha256', async () => {
    expect(await sandbox.call('fs.read', { path: '@project/readme.md' })).toEqual({
      ok: true,
      path: '@project/readme.md',
      bytes: 22,
      sha256: sha('# Project\nhello world\n'),
      truncated: false,
      content: '# Project\nhello world\n',
    });
  });

  test('a large file gives a preview cut at a line and a hint naming the limit', async () => {
    writeFileSync(join(sandbox.project, 'big.txt'), numbered(500));
    const result = await sandbox.call('fs.read', { path: '@project/big.txt' });
    expect(result).toMatchObject({ ok: true, truncated: true, bytes: numbered(500).length, totalLines: 500 });
    expect((result.contentPreview as string).endsWith('\n')).toBe(true);
    expect((result.contentPreview as string).length).toBeLessThanOrEqual(100);
    expect(result.hint).toMatch(/read limit of 1000 bytes.*startLine\/endLine/);
    expect(result.content).toBeUndefined();
  });

  test('line and byte windows', async () => {
    writeFileSync(join(sandbox.project, 'big.txt'), numbered(500));
    const lines = await sandbox.call('fs.read', { path: '@project/big.txt', startLine: 10, endLine: 12 });
    expect(lines).toMatchObject({
      ok: true,
      truncated: false,
      content: 'line 10\nline 11\nline 12\n',
      window: { startLine: 10, endLine: 12, totalLines: 500 },
    });
    const bytes = await sandbox.call('fs.read', { path: '@project/big.txt', offset: 7, length: 7 });
    expect(bytes).toMatchObject({ ok: true, content: 'line 2\n', sha256: sha(numbered(500)) });
    const open = await sandbox.call('fs.read', { path: '@project/big.txt', startLine: 495 });
    expect(open.content).toBe('line 495\nline 496\nline 497\nline 498\nline 499\nline 500\n');
  });

  test('a window over the limit is E_READ_LIMIT with the limit in details', async () => {
    writeFileSync(join(sandbox.project, 'big.txt'), numbered(500));
    const result = await sandbox.call('fs.read', { path: '@project/big.txt', startLine: 1, endLine: 400 });
    expect(result).toMatchObject({ ok: false, error: { code: 'E_READ_LIMIT', details: { limit: 1000 } } });
  });

  test('binary content is described, not dumped', async () => {
    writeFileSync(join(sandbox.project, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    const result = await sandbox.call('fs.read', { path: '@project/image.png' });
    expect(result).toMatchObject({ ok: true, truncated: true, binary: true, bytes: 8 });
    expect(result.contentPreview).toContain('PNG image');
  });

  test('missing files and folders are ENOENT', async () => {
    expect(await sandbox.call('fs.read', { path: '@project/nope.md' })).toMatchObject({
      ok: false,
      error: { code: 'ENOENT' },
    });
    expect(await sandbox.call('fs.read', { path: '@project/no/such/file.md' })).toMatchObject({
      ok: false,
      error: { code: 'ENOENT' },
    });
    expect(await sandbox.call('fs.read', { path: '@project' })).toMatchObject({
      ok: false,
      error: { code: 'ENOENT' },
    });
  });

  test('a symlink that stays inside the mount is followed', async () => {
    const { symlinkSync } = await import('node:fs');
    symlinkSync('readme.md', join(sandbox.project, 'alias.md'));
    expect(await sandbox.call('fs.read', { path: '@project/alias.md' })).toMatchObject({
      ok: true,
      path: '@project/alias.md',
      content: '# Project\nhello world\n',
    });
  });
});

describe('fs.write', () => {
  test('creates parents, reports bytes and sha256, keeps the mode of a replaced file', async () => {
    const result = await sandbox.call('fs.write', { path: '@project/a/b/c.txt', content: 'héllo' });
    expect(result).toEqual({
      ok: true,
      path: '@project/a/b/c.txt',
      bytesWritten: 6,
      sha256After: sha('héllo'),
    });
    chmodSync(join(sandbox.project, 'a/b/c.txt'), 0o640);
    await sandbox.call('fs.write', { path: '@project/a/b/c.txt', content: 'again' });
    expect(readFileSync(join(sandbox.project, 'a/b/c.txt'), 'utf8')).toBe('again');
    expect(statSync(join(sandbox.project, 'a/b/c.txt')).mode & 0o777).toBe(0o640);
  });

  test('ifMatchSha256 guards against lost updates', async () => {
    const current = sha('# Project\nhello world\n');
    const stale = await sandbox.call('fs.write', {
      path: '@project/readme.md',
      content: 'x',
      ifMatchSha256: sha('other'),
    });
    expect(stale).toMatchObject({
      ok: false,
      error: { code: 'E_PRECONDITION_FAILED', details: { expected: sha('other'), actual: current } },
    });
    expect(readFileSync(join(sandbox.project, 'readme.md'), 'utf8')).toBe('# Project\nhello world\n');
    expect(
      await sandbox.call('fs.write', { path: '@project/readme.md', content: 'x', ifMatchSha256: current }),
    ).toMatchObject({ ok: true });
  });

  test('over the write limit is E_WRITE_LIMIT and touches nothing', async () => {
    const result = await sandbox.call('fs.write', {
      path: '@project/new/big.txt',
      content: 'x'.repeat(5001),
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'E_WRITE_LIMIT', details: { limit: 5000, bytes: 5001 } },
    });
    expect(() => statSync(join(sandbox.project, 'new'))).toThrow();
  });
});

describe('fs.apply_patch', () => {
  const workflow =
    '---\n# run state\ncurrentNodeId: start\nstepsCompleted: []\nvariables:\n  keep: 1\n---\n# Body\nunchanged text\n';

  test('updateFrontmatter applies every §6.6 operation and keeps the body and comments', async () => {
    writeFileSync(join(sandbox.state, 'workflow.md'), workflow);
    const result = await sandbox.call('fs.apply_patch', {
      path: '@state/workflow.md',
      operation: 'updateFrontmatter',
      ifMatchSha256: sha(workflow),
      update: {
        stepsCompleted: { append: ['start'] },
        variables: { set: { topic: 'auth', count: 2 } },
        decisionLog: { append: [{ node: 'start', choice: 'next' }] },
        artifacts: { append: ['@project/artifacts/story.md'] },
        currentNodeId: { set: 'review' },
        updatedAt: { set: '2025-01-02T03:04:05Z' },
      },
    });
    const text = readFileSync(join(sandbox.state, 'workflow.md'), 'utf8');
    expect(result).toEqual({
      ok: true,
      path: '@state/workflow.md',
      sha256Before: sha(workflow),
      sha256After: sha(text),
    });
    expect(text.endsWith('---\n# Body\nunchanged text\n')).toBe(true);
    expect(text).toContain('# run state');
    const { parse } = await import('yaml');
    expect(parse(text.split('---\n')[1]!)).toEqual({
      currentNodeId: 'review',
      stepsCompleted: ['start'],
      variables: { keep: 1, topic: 'auth', count: 2 },
      decisionLog: [{ node: 'start', choice: 'next' }],
      artifacts: ['@project/artifacts/story.md'],
      updatedAt: '2025-01-02T03:04:05Z',
    });
  });

  test('E_INVALID_FRONTMATTER and E_PRECONDITION_FAILED leave the file as it was', async () => {
    writeFileSync(join(sandbox.state, 'bad.md'), '---\nkey: [unclosed\n---\nbody\n');
    writeFileSync(join(sandbox.state, 'none.md'), 'no frontmatter\n');
    writeFileSync(join(sandbox.state, 'workflow.md'), workflow);
    const update = { currentNodeId: { set: 'x' } };
    expect(
      await sandbox.call('fs.apply_patch', { path: '@state/bad.md', operation: 'updateFrontmatter', update }),
    ).toMatchObject({ ok: false, error: { code: 'E_INVALID_FRONTMATTER' } });
    expect(
      await sandbox.call('fs.apply_patch', {
        path: '@state/none.md',
        operation: 'updateFrontmatter',
        update,
      }),
    ).toMatchObject({ ok: false, error: { code: 'E_INVALID_FRONTMATTER' } });
    expect(
      await sandbox.call('fs.apply_patch', {
        path: '@state/workflow.md',
        operation: 'updateFrontmatter',
        update,
        ifMatchSha256: sha('x'),
      }),
    ).toMatchObject({ ok: false, error: { code: 'E_PRECONDITION_FAILED' } });
    expect(readFileSync(join(sandbox.state, 'bad.md'), 'utf8')).toBe('---\nkey: [unclosed\n---\nbody\n');
    expect(readFileSync(join(sandbox.state, 'workflow.md'), 'utf8')).toBe(workflow);
  });

  test('search/replace blocks must match exactly once', async () => {
    writeFileSync(join(sandbox.project, 'code.ts'), 'const a = 1;\nconst b = 1;\n');
    const twice = await sandbox.call('fs.apply_patch', {
      path: '@project/code.ts',
      operation: 'replace',
      edits: [{ search: '= 1', replace: '= 2' }],
    });
    expect(twice).toMatchObject({
      ok: false,
      error: { code: 'E_PRECONDITION_FAILED', details: { occurrences: 2 } },
    });
    const none = await sandbox.call('fs.apply_patch', {
      path: '@project/code.ts',
      operation: 'replace',
      edits: [{ search: 'const c', replace: '' }],
    });
    expect(none).toMatchObject({
      ok: false,
      error: { code: 'E_PRECONDITION_FAILED', details: { occurrences: 0 } },
    });
    const done = await sandbox.call('fs.apply_patch', {
      path: '@project/code.ts',
      operation: 'replace',
      edits: [
        { search: 'a = 1', replace: 'a = 3' },
        { search: 'b = 1', replace: 'b = 4' },
      ],
    });
    expect(done).toMatchObject({ ok: true });
    expect(readFileSync(join(sandbox.project, 'code.ts'), 'utf8')).toBe('const a = 3;\nconst b = 4;\n');
  });

  test('a unified diff is applied, even with line numbers that are off', async () => {
    writeFileSync(join(sandbox.project, 'list.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    const diff =
      '--- a/list.txt\n+++ b/list.txt\n@@ -9,3 +9,3 @@\n two\n-three\n+THREE\n four\n@@ -5,1 +5,2 @@\n five\n+six\n';
    expect(
      await sandbox.call('fs.apply_patch', { path: '@project/list.txt', operation: 'unifiedDiff', diff }),
    ).toMatchObject({ ok: true });
    expect(readFileSync(join(sandbox.project, 'list.txt'), 'utf8')).toBe(
      'one\ntwo\nTHREE\nfour\nfive\nsix\n',
    );
    const stale = await sandbox.call('fs.apply_patch', {
      path: '@project/list.txt',
      operation: 'unifiedDiff',
      diff,
    });
    expect(stale).toMatchObject({ ok: false, error: { code: 'E_PRECONDITION_FAILED' } });
  });

  test('a missing file is ENOENT and no folder is created', async () => {
    const result = await sandbox.call('fs.apply_patch', {
      path: '@project/new/x.md',
      operation: 'replace',
      edits: [{ search: 'a', replace: 'b' }],
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'ENOENT' } });
    expect(() => statSync(join(sandbox.project, 'new'))).toThrow();
  });
});

describe('fs.search and fs.list', () => {
  beforeEach(() => {
    const { project } = sandbox;
    mkdirSync(join(project, 'src/deep'), { recursive: true });
    mkdirSync(join(project, 'build'));
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, '.gitignore'), 'build/\n');
    writeFileSync(join(project, 'src/.gitignore'), '*.log\n');
    writeFileSync(join(project, 'src/a.ts'), 'first\nconst needle = 1;\nlast\n');
    writeFileSync(join(project, 'src/deep/b.md'), 'a needle here\nand NEEDLE there\n');
    writeFileSync(join(project, 'src/debug.log'), 'needle in a log\n');
    writeFileSync(join(project, 'build/out.js'), 'needle built\n');
    writeFileSync(join(project, '.git/config'), 'needle in git\n');
    writeFileSync(join(project, 'src/blob.bin'), Buffer.from('needle\0binary'));
  });

  test('matches with line, column and context; .gitignore (nested), .git and binaries skipped', async () => {
    const result = await sandbox.call('fs.search', { query: 'needle', before: 1, after: 1 });
    expect(result).toEqual({
      ok: true,
      matches: [
        {
          path: '@project/src/a.ts',
          line: 2,
          column: 7,
          text: 'const needle = 1;',
          before: ['first'],
          after: ['last'],
        },
        {
          path: '@project/src/deep/b.md',
          line: 1,
          column: 3,
          text: 'a needle here',
          before: [],
          after: ['and NEEDLE there'],
        },
      ],
      truncated: false,
      stats: { filesScanned: 5, matchesFound: 2 },
    });
  });

  test('regex, ignoreCase, glob, path and maxMatches', async () => {
    const regex = await sandbox.call('fs.search', { query: 'ne+dle\\s=', regex: true });
    expect((regex.matches as { path: string }[]).map((match) => match.path)).toEqual(['@project/src/a.ts']);
    const ignoreCase = await sandbox.call('fs.search', { query: 'NEEDLE', ignoreCase: true, glob: '*.md' });
    expect((ignoreCase.matches as { line: number }[]).map((match) => match.line)).toEqual([1, 2]);
    const limited = await sandbox.call('fs.search', {
      query: 'needle',
      ignoreCase: true,
      maxMatches: 1,
      path: '@project/src/deep',
    });
    expect(limited).toMatchObject({ ok: true, truncated: true, matches: [{ line: 1 }] });
    expect(limited.hint).toMatch(/More than 1 matches/);
    const bad = await sandbox.call('fs.search', { query: '(', regex: true });
    expect(bad).toMatchObject({ ok: false, error: { code: 'E_SCHEMA_VALIDATION' } });
  });

  test('fs.list: folders end with /, ignored paths and .git left out, truncation with a hint', async () => {
    const result = await sandbox.call('fs.list', { path: '@project', depth: 3 });
    expect(result).toMatchObject({
      ok: true,
      path: '@project',
      truncated: true,
      entriesPreview: ['.gitignore', 'readme.md', 'src/', 'src/.gitignore', 'src/a.ts'],
    });
    expect(result.hint).toMatch(/More than 5 entries/);
    const small = await sandbox.call('fs.list', { path: '@project/src', depth: 2, glob: '*.md' });
    expect(small).toEqual({ ok: true, path: '@project/src', entries: ['deep/b.md'] });
  });
});

describe('audit log wiring', () => {
  test('every call is logged with outcome, hashes and redacted content', async () => {
    await sandbox.call('fs.write', {
      path: '@project/x.txt',
      content: 'secret content',
      apiKey: 'sk-abcdefghijklmnopqrstuvwx',
    });
    await sandbox.call('fs.read', { path: '@project/missing.txt' });
    const { entries, warnings } = await readAuditLog(sandbox.auditPath);
    expect(warnings).toEqual([]);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      runId: 'run-test',
      tool: 'fs.write',
      outcome: 'ok',
      sha256Before: null,
      sha256After: sha('secret content'),
      arguments: {
        path: '@project/x.txt',
        content: { bytes: 14, sha256: sha('secret content') },
        apiKey: '[redacted]',
      },
    });
    expect(entries[1]).toMatchObject({ tool: 'fs.read', outcome: 'error', errorCode: 'ENOENT' });
    expect(readFileSync(sandbox.auditPath, 'utf8')).not.toContain('secret content');
    const lines = formatAuditLog(entries);
    expect(lines[0]).toMatch(/fs\.write\s+ok\s+\d+ms\s+@project\/x\.txt\s+sha256 \(new\) → [0-9a-f]{8}/);
    expect(lines[1]).toMatch(/fs\.read\s+ERROR ENOENT/);
  });
});

describe('hidden paths', () => {
  let hidden: Sandbox;
  beforeEach(() => {
    hidden = createSandbox({ hide: ['@project/.spine'] });
    mkdirSync(join(hidden.project, '.spine', 'runs', 'r1'), { recursive: true });
    writeFileSync(join(hidden.project, '.spine', 'runs', 'r1', 'turns.jsonl'), 'zebra-record\n');
    writeFileSync(join(hidden.project, 'notes.txt'), 'zebra in the open\n');
  });
  afterEach(() => hidden.cleanup());

  test('cannot be read, written or listed by name, also through a symlink inside the project', async () => {
    const { symlinkSync } = await import('node:fs');
    symlinkSync('.spine/runs', join(hidden.project, 'runs-link'));
    for (const [tool, args] of [
      ['fs.read', { path: '@project/.spine/runs/r1/turns.jsonl' }],
      ['fs.read', { path: '@project/runs-link/r1/turns.jsonl' }],
      ['fs.list', { path: '@project/.spine' }],
      ['fs.write', { path: '@project/.spine/runs/r1/turns.jsonl', content: 'forged' }],
    ] as const) {
      const result = await hidden.call(tool, args);
      expect(result, `${tool} ${args.path}`).toMatchObject({
        ok: false,
        error: { code: 'E_SANDBOX_VIOLATION', details: { reason: 'hidden-path' } },
      });
    }
    expect(readFileSync(join(hidden.project, '.spine', 'runs', 'r1', 'turns.jsonl'), 'utf8')).toBe(
      'zebra-record\n',
    );
  });

  test('are left out of listings and searches', async () => {
    const listing = await hidden.call('fs.list', { path: '@project', depth: 3 });
    expect(listing.entries).toContain('notes.txt');
    expect(JSON.stringify(listing.entries)).not.toContain('.spine');
    const search = await hidden.call('fs.search', { query: 'zebra' });
    expect((search.matches as { path: string }[]).map((match) => match.path)).toEqual(['@project/notes.txt']);
  });
});
