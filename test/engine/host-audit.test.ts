import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createAuditLog } from '../../src/tools/audit-log.js';
import { readAuditLog } from '../../src/tools/audit-log-reader.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { fsTools } from '../../src/tools/fs/fs-tools.js';
import { createToolHost } from '../../src/tools/tool-host.js';

// Issue 12 §1: the ToolHost keeps the audit log, so every call of every source is one line — module tools,
// refusals and a tool abandoned after a cancel included — with what the fs tools add.
let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'spine-host-audit-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

test('every call of every source is one audit line, with its source and outcome', async () => {
  const auditPath = join(folder, 'state', 'audit.jsonl');
  const add = defineTool({
    name: 'math.add',
    description: 'Adds.',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
    source: 'module',
    execute: ({ a, b }: Record<string, number>) => ({ sum: (a ?? 0) + (b ?? 0) }),
  });
  const stubborn = defineTool({
    name: 'stubborn',
    description: 'Never stops.',
    parameters: { type: 'object' },
    execute: () => new Promise(() => undefined),
  });
  const host = createToolHost(
    [fsTools({ mounts: { project: folder, state: join(folder, 'state') } }), add, stubborn],
    { audit: createAuditLog(auditPath) },
  );
  const context = { runId: 'r1', projectRoot: folder };
  await host.execute({ id: 'c1', name: 'math_add', arguments: { a: 2, b: 3 } }, context);
  await host.execute(
    { id: 'c2', name: 'fs_write', arguments: { path: '@project/a.txt', content: 'hi' } },
    context,
  );
  await host.execute({ id: 'c3', name: 'no_such_tool', arguments: {} }, context);
  const cancel = new AbortController();
  setTimeout(() => cancel.abort(), 10);
  await host.execute({ id: 'c4', name: 'stubborn', arguments: {} }, { ...context, signal: cancel.signal });

  const { entries } = await readAuditLog(auditPath);
  expect(entries).toHaveLength(4);
  expect(entries[0]).toMatchObject({
    toolCallId: 'c1',
    source: 'module',
    tool: 'math.add',
    outcome: 'ok',
    arguments: { a: 2, b: 3 },
  });
  expect(entries[1]).toMatchObject({
    toolCallId: 'c2',
    source: 'fs',
    tool: 'fs.write',
    outcome: 'ok',
    path: '@project/a.txt',
    sha256Before: null,
  });
  expect(entries[2]).toMatchObject({ toolCallId: 'c3', outcome: 'error', errorCode: 'E_UNKNOWN_TOOL' });
  expect(entries[3]).toMatchObject({
    toolCallId: 'c4',
    source: 'tool',
    outcome: 'cancelled',
    abandoned: true,
  });
});
