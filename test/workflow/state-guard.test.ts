import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../src/core/types.js';
import { createAuditLog } from '../../src/tools/audit-log.js';
import { defaultToolPolicy } from '../../src/workflow/prompt/tool-policy.js';
import { createWorkflowTools } from '../../src/workflow/run/workflow-tools.js';
import { guardStateWrite } from '../../src/workflow/state/guard-state-write.js';
import { parseStateDocument } from '../../src/workflow/state/state-document.js';
import type { WorkflowGraph } from '../../src/workflow/workflow-types.js';

// The guard on every write of @state/workflow.md (docs/workflows.md §2.6), through the fs tools a run uses.
const graph: WorkflowGraph = {
  schemaVersion: '1.1',
  entryNodeId: 'A',
  nodes: [
    { id: 'A', type: 'step', file: 'steps/A.md' },
    { id: 'B', type: 'decision', file: 'steps/B.md' },
    { id: 'C', type: 'step', file: 'steps/C.md' },
    { id: 'Z', type: 'end', file: 'steps/Z.md' },
  ],
  edges: [
    { from: 'A', to: 'B', label: 'next' },
    { from: 'B', to: 'C', label: 'yes', conditionText: 'the notes are long' },
    { from: 'B', to: 'Z', label: 'no', isDefault: true },
    { from: 'C', to: 'Z', label: 'next' },
  ],
};

function state(fields: Record<string, string>): string {
  const lines = {
    schemaVersion: '"1.1"',
    workflowType: 'guard-test',
    currentNodeId: '""',
    stepsCompleted: '[]',
    variables: '{}',
    decisionLog: '[]',
    artifacts: '[]',
    ...fields,
  };
  return `---\n${Object.entries(lines)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n')}\n---\n# Body kept as it is\n`;
}

function setUp(initial = state({})) {
  const root = mkdtempSync(join(tmpdir(), 'spine-guard-'));
  const project = join(root, 'project');
  const pkg = join(root, 'pkg');
  const runDir = join(root, 'run');
  for (const folder of [project, pkg, runDir]) mkdirSync(folder);
  writeFileSync(join(runDir, 'workflow.md'), initial);
  const tools = createWorkflowTools({
    project,
    packageRoot: pkg,
    runDir,
    write: true,
    audit: createAuditLog(join(runDir, 'audit.jsonl')),
    currentPolicy: () => ({ agentId: 'a', policy: defaultToolPolicy }),
    guardState: (current, next) => ({
      state: guardStateWrite(graph, current, next, '@state/workflow.md').currentNodeId,
    }),
  });
  let calls = 0;
  const call = (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    calls += 1;
    return tools.execute(
      { id: `call_${calls}`, name, arguments: args },
      { runId: 'r', projectRoot: project },
    );
  };
  const stateText = () => readFileSync(join(runDir, 'workflow.md'), 'utf8');
  return { project, runDir, call, stateText };
}

const frontmatter = (text: string) => parseStateDocument(text, 'state').frontmatter;

const patch = (update: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  path: '@state/workflow.md',
  operation: 'updateFrontmatter',
  update,
  ...extra,
});

describe('the state guard', () => {
  it('A → B along an edge is written; the body and the old "" (the entry) both count', async () => {
    const { call, stateText } = setUp();
    const result = await call(
      'fs.apply_patch',
      patch({ stepsCompleted: { append: ['A'] }, currentNodeId: { set: 'B' } }),
    );
    expect(result).toMatchObject({ ok: true, state: 'B' });
    expect(frontmatter(stateText())).toMatchObject({ currentNodeId: 'B', stepsCompleted: ['A'] });
    expect(stateText()).toMatch(/\n---\n# Body kept as it is\n$/);
  });

  it('A → Z without an edge, and an unknown node, are E_INVALID_TRANSITION with allowedNext; the file is untouched', async () => {
    const { call, stateText } = setUp(state({ currentNodeId: 'B' }));
    const before = stateText();
    const noEdge = await call('fs.apply_patch', patch({ currentNodeId: { set: 'A' } }));
    expect(noEdge).toEqual({
      ok: false,
      error: {
        code: 'E_INVALID_TRANSITION',
        message: expect.stringContaining('Invalid transition: B → A'),
        details: {
          from: 'B',
          to: 'A',
          allowedNext: [
            { to: 'C', label: 'yes', conditionText: 'the notes are long' },
            { to: 'Z', label: 'no', isDefault: true },
          ],
        },
      },
    });
    const unknown = await call('fs.apply_patch', patch({ currentNodeId: { set: 'Q' } }));
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'E_INVALID_TRANSITION', details: { to: 'Q', allowedNext: [{ to: 'C' }, { to: 'Z' }] } },
    });
    expect(stateText()).toBe(before);
  });

  it('a schema fault is E_SCHEMA_VALIDATION with the faults, formats included', async () => {
    const { call, stateText } = setUp();
    const before = stateText();
    const badTime = await call('fs.apply_patch', patch({ updatedAt: { set: 'yesterday' } }));
    expect(badTime).toMatchObject({
      ok: false,
      error: { code: 'E_SCHEMA_VALIDATION', details: { errors: [{ path: '/updatedAt' }] } },
    });
    const badDecision = await call('fs.apply_patch', patch({ decisionLog: { append: [{ from: 'A' }] } }));
    expect(badDecision).toMatchObject({ ok: false, error: { code: 'E_SCHEMA_VALIDATION' } });
    expect(stateText()).toBe(before);
  });

  it('fs.write of the whole file goes through the same guard: broken YAML, a lost step, a bad jump', async () => {
    const { call, stateText } = setUp(state({ currentNodeId: 'B', stepsCompleted: '[A]' }));
    const before = stateText();
    const broken = await call('fs.write', { path: '@state/workflow.md', content: '---\na: [\n---\n' });
    expect(broken).toMatchObject({ ok: false, error: { code: 'E_INVALID_FRONTMATTER' } });
    const none = await call('fs.write', { path: '@state/workflow.md', content: 'no frontmatter' });
    expect(none).toMatchObject({ ok: false, error: { code: 'E_INVALID_FRONTMATTER' } });
    const regression = await call('fs.write', {
      path: '@state/workflow.md',
      content: state({ currentNodeId: 'B' }),
    });
    expect(regression).toMatchObject({
      ok: false,
      error: {
        code: 'E_SCHEMA_VALIDATION',
        details: { reason: 'stepsCompleted_regression', removed: ['A'] },
      },
    });
    const jump = await call('fs.write', {
      path: '@state/workflow.md',
      content: state({ currentNodeId: 'A', stepsCompleted: '[A]' }),
    });
    expect(jump).toMatchObject({ ok: false, error: { code: 'E_INVALID_TRANSITION' } });
    expect(stateText()).toBe(before);
    const legal = await call('fs.write', {
      path: '@state/workflow.md',
      content: state({ currentNodeId: 'C', stepsCompleted: '[A, B]' }),
    });
    expect(legal).toMatchObject({ ok: true, state: 'C' });
  });

  it('the nested patch form is read like the flat one, and ifMatchSha256 is checked first', async () => {
    const { call, stateText } = setUp();
    const stale = await call('fs.apply_patch', {
      path: '@state/workflow.md',
      patch: {
        operation: 'updateFrontmatter',
        update: { currentNodeId: { set: 'Q' } },
        ifMatchSha256: '0'.repeat(64),
      },
    });
    // The precondition wins over the (also illegal) transition.
    expect(stale).toMatchObject({ ok: false, error: { code: 'E_PRECONDITION_FAILED' } });
    const sha = createHash('sha256').update(stateText()).digest('hex');
    const nested = await call('fs.apply_patch', {
      path: '@state/workflow.md',
      patch: { operation: 'updateFrontmatter', update: { currentNodeId: { set: 'B' } }, ifMatchSha256: sha },
    });
    expect(nested).toMatchObject({ ok: true, state: 'B' });
  });

  it('appends to stepsCompleted and artifacts only what is not there yet', async () => {
    const { call, stateText } = setUp();
    await call(
      'fs.apply_patch',
      patch({ stepsCompleted: { append: ['A'] }, artifacts: { append: ['artifacts/x.md'] } }),
    );
    await call(
      'fs.apply_patch',
      patch({
        stepsCompleted: { append: ['A'] },
        artifacts: { append: ['artifacts/x.md', 'artifacts/y.md'] },
      }),
    );
    expect(frontmatter(stateText())).toMatchObject({
      stepsCompleted: ['A'],
      artifacts: ['artifacts/x.md', 'artifacts/y.md'],
    });
  });

  it('a new file under @project/artifacts/ is recorded in the state; when the state refuses it, the file is removed again', async () => {
    const { call, stateText, project, runDir } = setUp();
    const written = await call('fs.write', { path: '@project/artifacts/notes/a.md', content: 'a' });
    expect(written).toMatchObject({ ok: true });
    expect(frontmatter(stateText()).artifacts).toEqual(['artifacts/notes/a.md']);
    // Elsewhere in the project: not an artifact.
    await call('fs.write', { path: '@project/other.md', content: 'b' });
    expect(stateText()).not.toContain('other.md');
    // A state that no longer passes the guard: the new artifact cannot be recorded, so it is not kept.
    writeFileSync(join(runDir, 'workflow.md'), '---\nschemaVersion: "2.0"\n---\n');
    const refused = await call('fs.write', { path: '@project/artifacts/notes/b.md', content: 'b' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'E_SCHEMA_VALIDATION' } });
    expect(existsSync(join(project, 'artifacts/notes/b.md'))).toBe(false);
    // Overwriting an existing artifact is no new file: nothing to record, nothing refused.
    const overwrite = await call('fs.write', { path: '@project/artifacts/notes/a.md', content: 'a2' });
    expect(overwrite).toMatchObject({ ok: true });
  });

  it('@pkg stays read-only and the run records cannot be written by the model', async () => {
    const { call } = setUp();
    expect(await call('fs.write', { path: '@pkg/steps/A.md', content: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'E_SANDBOX_VIOLATION' },
    });
    for (const name of ['run.json', 'conversation.jsonl', 'audit.jsonl'])
      expect(await call('fs.write', { path: `@state/${name}`, content: 'x' })).toMatchObject({ ok: false });
  });
});
