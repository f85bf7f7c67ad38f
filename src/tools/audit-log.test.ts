import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type AuditEntry, createAuditLog } from './audit-log.js';
import { parseAuditLog, readAuditLog } from './audit-log-reader.js';
import { redactAuditArguments } from './redact-audit-arguments.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'spine-audit-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const entry = (tool: string): AuditEntry => ({
  time: '2025-01-01T00:00:00.000Z',
  runId: 'r1',
  tool,
  arguments: {},
  outcome: 'ok',
  durationMs: 1,
});

test('entries are appended one line each, in call order, creating the folder', async () => {
  const log = createAuditLog(join(folder, 'run', 'audit.jsonl'));
  await Promise.all(['a', 'b', 'c'].map((tool) => log.append(entry(tool))));
  const text = readFileSync(log.path, 'utf8');
  expect(text.split('\n')).toHaveLength(4);
  expect((await readAuditLog(log.path)).entries.map((item) => item.tool)).toEqual(['a', 'b', 'c']);
});

test('a torn last line is skipped with a warning and nothing before it is lost', () => {
  const good = JSON.stringify(entry('fs.read'));
  const result = parseAuditLog(`${good}\n${good}\n{"time":"2025-01-01T00:0`);
  expect(result.entries).toHaveLength(2);
  expect(result.warnings).toEqual([expect.stringMatching(/line 3: torn last line/)]);
});

test('after a torn line, the next writer starts a new line so its entry survives', async () => {
  const path = join(folder, 'audit.jsonl');
  writeFileSync(path, `${JSON.stringify(entry('before'))}\n{"time":"torn`);
  await createAuditLog(path).append(entry('after'));
  const result = await readAuditLog(path);
  expect(result.entries.map((item) => item.tool)).toEqual(['before', 'after']);
  expect(result.warnings).toEqual([expect.stringMatching(/line 2: not an audit entry/)]);
});

test('a missing log reads as empty', async () => {
  expect(await readAuditLog(join(folder, 'none.jsonl'))).toEqual({ entries: [], warnings: [] });
  appendFileSync(join(folder, 'blank.jsonl'), '\n\n');
  expect(await readAuditLog(join(folder, 'blank.jsonl'))).toEqual({ entries: [], warnings: [] });
});

test('redaction: secret keys, token-looking values, contents and long strings', () => {
  expect(
    redactAuditArguments({
      path: '@project/a',
      token: 'abc',
      headers: { Authorization: 'Bearer abcdefghijkl' },
      note: 'key sk-abcdefghijklmnopqrstuv here',
      content: 'hello',
      long: 'y'.repeat(2000),
    }),
  ).toEqual({
    path: '@project/a',
    token: '[redacted]',
    headers: { Authorization: '[redacted]' },
    note: 'key [redacted] here',
    content: { bytes: 5, sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' },
    long: { bytes: 2000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
  });
});
