import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPackage, selectWorkflow, validatePackage } from '../../../src/workflow/package/open-package.js';
import { makeZip, type ZipEntry } from './zip-kit.js';

const examplePackage = resolve('examples/release-notes');

function filesOf(folder: string): ZipEntry[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { name: relative(folder, path), content: readFileSync(path, 'utf8') };
    });
}

function temp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

async function writeZip(
  entries: ZipEntry[],
  rename: Record<string, string> = {},
  name = 'package.bmad',
): Promise<string> {
  const path = join(temp('spine-zip-'), name);
  writeFileSync(path, await makeZip(entries, rename));
  return path;
}

function copyExample(): string {
  const copy = temp('spine-pkg-');
  cpSync(examplePackage, copy, { recursive: true });
  return copy;
}

describe('opening a package', () => {
  it('reads a folder: manifest, agents, the workflow, its graph and steps', async () => {
    const pkg = await openPackage(examplePackage);
    expect(pkg).toMatchObject({
      source: examplePackage,
      root: examplePackage,
      manifest: { name: 'release-notes' },
    });
    expect(pkg.sha256).toBeUndefined();
    expect(pkg.agents.map((agent) => agent.id)).toEqual(['scribe', 'editor']);
    const workflow = selectWorkflow(pkg);
    expect(workflow).toMatchObject({
      id: 'release-notes',
      workflowFile: 'workflow.md',
      graphFile: 'workflow.graph.json',
    });
    expect([...workflow.steps.keys()]).toHaveLength(6);
    expect(workflow.steps.get('end-99')).toMatchObject({
      file: 'steps/end-99.md',
      frontmatter: { type: 'end' },
    });
  });

  it('extracts an archive once into a cache folder named by its sha256, and reuses it', async () => {
    const cacheDir = temp('spine-cache-');
    const archive = await writeZip(filesOf(examplePackage));
    const first = await openPackage(archive, { cacheDir });
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.root).toBe(join(cacheDir, first.sha256!));
    expect(readFileSync(join(first.root, 'steps/end-99.md'), 'utf8')).toBe(
      readFileSync(join(examplePackage, 'steps/end-99.md'), 'utf8'),
    );
    // A marker left in the extraction survives a second open: nothing was extracted again.
    writeFileSync(join(first.root, '.marker'), '');
    const second = await openPackage(archive, { cacheDir });
    expect(second.root).toBe(first.root);
    expect(existsSync(join(second.root, '.marker'))).toBe(true);
    expect(readdirSync(cacheDir)).toEqual([first.sha256]);
  });

  it('reads the multi-workflow layout and selects a workflow by id', async () => {
    const folder = temp('spine-multi-');
    const files = filesOf(examplePackage);
    for (const file of files) {
      const moved =
        ['workflow.md', 'workflow.graph.json'].includes(file.name) || file.name.startsWith('steps/');
      const target = join(folder, moved ? `workflows/notes/${file.name}` : file.name);
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, file.content!);
    }
    cpSync(join(folder, 'workflows/notes'), join(folder, 'workflows/other'), { recursive: true });
    const graphPath = (id: string) => join(folder, `workflows/${id}/workflow.graph.json`);
    for (const id of ['notes', 'other']) {
      const graph = JSON.parse(readFileSync(graphPath(id), 'utf8'));
      for (const node of graph.nodes) node.file = `workflows/${id}/${node.file}`;
      writeFileSync(graphPath(id), JSON.stringify(graph));
    }
    const manifest = JSON.parse(readFileSync(join(folder, 'bmad.json'), 'utf8'));
    manifest.entry = {
      ...manifest.entry,
      workflow: 'workflows/notes/workflow.md',
      graph: 'workflows/notes/workflow.graph.json',
    };
    manifest.workflows = ['notes', 'other'].map((id) => ({
      id,
      workflow: `workflows/${id}/workflow.md`,
      graph: `workflows/${id}/workflow.graph.json`,
    }));
    writeFileSync(join(folder, 'bmad.json'), JSON.stringify(manifest));
    const pkg = await openPackage(folder);
    expect(pkg.workflows.map((workflow) => workflow.id)).toEqual(['notes', 'other']);
    expect(selectWorkflow(pkg, 'other').graphFile).toBe('workflows/other/workflow.graph.json');
    expect(() => selectWorkflow(pkg)).toThrow(expect.objectContaining({ code: 'WORKFLOW_REF_REQUIRED' }));
    expect(() => selectWorkflow(pkg, 'nope')).toThrow(
      expect.objectContaining({ code: 'WORKFLOW_REF_UNKNOWN' }),
    );
  });

  it('a missing package is PACKAGE_NOT_FOUND; a file that is no zip is PACKAGE_INVALID', async () => {
    await expect(openPackage(join(tmpdir(), 'no-such-package-here'))).rejects.toMatchObject({
      code: 'PACKAGE_NOT_FOUND',
    });
    const notZip = join(temp('spine-zip-'), 'x.bmad');
    writeFileSync(notZip, 'not a zip');
    await expect(openPackage(notZip, { cacheDir: temp('spine-cache-') })).rejects.toMatchObject({
      code: 'PACKAGE_INVALID',
    });
  });
});

describe('hostile archives', () => {
  const base = () => filesOf(examplePackage);

  it.each([
    ['a path that climbs out', 'AAevil.txt', '../evil.tx'.padEnd(10, 't')],
    ['an absolute path', 'Atmp/evil.txt', '/tmp/evil.txt'],
    ['a backslash', 'AA\u0041evil.txt', '..\\evil.txt'],
  ])('refuses %s, extracting nothing', async (_label, placeholder, hostile) => {
    const cacheDir = temp('spine-cache-');
    const archive = await writeZip([...base(), { name: placeholder, content: 'x' }], {
      [placeholder]: hostile,
    });
    await expect(openPackage(archive, { cacheDir })).rejects.toMatchObject({ code: 'PACKAGE_UNSAFE_ENTRY' });
    expect(readdirSync(cacheDir)).toEqual([]);
    expect(existsSync(join(cacheDir, '..', 'evil.txt'))).toBe(false);
  });

  it('refuses a symbolic link entry', async () => {
    const archive = await writeZip([
      ...base(),
      { name: 'assets/link.md', content: '/etc/passwd', mode: 0o120777 },
    ]);
    await expect(openPackage(archive, { cacheDir: temp('spine-cache-') })).rejects.toMatchObject({
      code: 'PACKAGE_UNSAFE_ENTRY',
      details: { reason: 'a symbolic link' },
    });
  });

  it('refuses too many entries, and an entry that inflates past the limit', async () => {
    const many = Array.from({ length: 10_001 }, (_, index) => ({
      name: `assets/f${index}.txt`,
      content: '',
    }));
    await expect(openPackage(await writeZip(many), { cacheDir: temp('spine-cache-') })).rejects.toMatchObject(
      {
        code: 'PACKAGE_TOO_LARGE',
      },
    );
    // 60 MB of zeros compress to a few dozen KB: a small archive that would fill the disk.
    const bomb = { name: 'assets/zeros.txt', content: '\0'.repeat(60 * 1024 * 1024) };
    const archive = await writeZip([...base(), bomb]);
    expect(readFileSync(archive).length).toBeLessThan(1024 * 1024);
    await expect(openPackage(archive, { cacheDir: temp('spine-cache-') })).rejects.toMatchObject({
      code: 'PACKAGE_TOO_LARGE',
    });
  });

  it('refuses an entry whose header understates its size', async () => {
    const honest = await makeZip([...base(), { name: 'assets/big.txt', content: 'y'.repeat(5000) }]);
    // Rewrite the recorded uncompressed size (5000 = 0x1388) in both headers to 50.
    const lying = Buffer.from(honest);
    for (let offset = 0; offset < lying.length - 4; offset += 1)
      if (lying.readUInt32LE(offset) === 5000 && lying.readUInt32LE(offset - 4) !== 5000)
        lying.writeUInt32LE(50, offset);
    const path = join(temp('spine-zip-'), 'lie.zip');
    writeFileSync(path, lying);
    await expect(openPackage(path, { cacheDir: temp('spine-cache-') })).rejects.toMatchObject({
      code: expect.stringMatching(/^PACKAGE_(TOO_LARGE|INVALID)$/),
    });
  });

  it('a folder package whose step is a link out of the package is a problem', async () => {
    const copy = copyExample();
    const outside = join(temp('spine-outside-'), 'secret.md');
    writeFileSync(outside, '---\nschemaVersion: "1.1"\nnodeId: end-99\ntype: end\n---\n');
    rmSync(join(copy, 'steps/end-99.md'));
    symlinkSync(outside, join(copy, 'steps/end-99.md'));
    const report = await validatePackage(copy);
    expect(report.problems).toContainEqual(
      expect.objectContaining({
        code: 'PKG_PATH_OUTSIDE_PACKAGE',
        file: 'workflow.graph.json',
        pointer: '/nodes/5/file',
      }),
    );
  });
});

describe('validation reports every problem with its place', () => {
  it('names each code with the file and the pointer or line', async () => {
    const copy = copyExample();
    const edit = (path: string, change: (value: Record<string, unknown>) => void) => {
      const value = JSON.parse(readFileSync(join(copy, path), 'utf8'));
      change(value);
      writeFileSync(join(copy, path), JSON.stringify(value, null, 2));
    };
    edit('workflow.graph.json', (graph) => {
      const nodes = graph.nodes as Array<Record<string, unknown>>;
      graph.entryNodeId = 'step-00-missing';
      nodes.push({ ...nodes[0], title: 'again' });
      nodes[2]!.agentId = 'ghost';
      nodes[3]!.file = 'steps/none.md';
      (graph.edges as Array<Record<string, unknown>>)[0]!.from = 'nowhere';
      nodes[4]!.extra = true;
    });
    edit('agents.json', (agents) => {
      ((agents.agents as Array<Record<string, unknown>>)[1]!.metadata as Record<string, unknown>).icon = '';
    });
    writeFileSync(join(copy, 'steps/step-04-notes.md'), 'no frontmatter here\n---\nnodeId: x\n---\n');
    writeFileSync(
      join(copy, 'steps/end-99.md'),
      '---\nschemaVersion: "1.1"\nnodeId: end-99\ntype: step\nbad: [\n---\n',
    );
    writeFileSync(
      join(copy, 'steps/decide-02-audience.md'),
      '---\nschemaVersion: "1.1"\nnodeId: decide-02\ntype: merge\n---\n',
    );
    writeFileSync(
      join(copy, 'workflow.md'),
      '---\nschemaVersion: "1.1"\ncurrentNodeId: ""\nstepsCompleted: []\n---\n',
    );
    const report = await validatePackage(copy);
    const found = report.problems.map(({ code, file, pointer, line }) => ({ code, file, pointer, line }));
    expect(found).toEqual(
      expect.arrayContaining([
        {
          code: 'PKG_SCHEMA_VIOLATION',
          file: 'agents.json',
          pointer: '/agents/1/metadata/icon',
          line: undefined,
        },
        { code: 'PKG_SCHEMA_VIOLATION', file: 'workflow.md', pointer: '/workflowType', line: undefined },
        {
          code: 'PKG_SCHEMA_VIOLATION',
          file: 'workflow.graph.json',
          pointer: '/nodes/4/extra',
          line: undefined,
        },
        {
          code: 'PKG_ENTRY_NODE_MISSING',
          file: 'workflow.graph.json',
          pointer: '/entryNodeId',
          line: undefined,
        },
        {
          code: 'PKG_DUPLICATE_NODE_ID',
          file: 'workflow.graph.json',
          pointer: '/nodes/6/id',
          line: undefined,
        },
        {
          code: 'PKG_EDGE_UNKNOWN_NODE',
          file: 'workflow.graph.json',
          pointer: '/edges/0/from',
          line: undefined,
        },
        {
          code: 'PKG_UNKNOWN_AGENT',
          file: 'workflow.graph.json',
          pointer: '/nodes/2/agentId',
          line: undefined,
        },
        { code: 'PKG_MISSING_FILE', file: 'workflow.graph.json', pointer: '/nodes/3/file', line: undefined },
        { code: 'PKG_INVALID_FRONTMATTER', file: 'steps/step-04-notes.md', pointer: undefined, line: 2 },
        { code: 'PKG_INVALID_FRONTMATTER', file: 'steps/end-99.md', pointer: undefined, line: 6 },
        {
          code: 'PKG_STEP_NODE_ID_MISMATCH',
          file: 'steps/decide-02-audience.md',
          pointer: '/nodeId',
          line: undefined,
        },
        {
          code: 'PKG_STEP_TYPE_MISMATCH',
          file: 'steps/decide-02-audience.md',
          pointer: '/type',
          line: undefined,
        },
      ]),
    );
    await expect(openPackage(copy)).rejects.toMatchObject({ code: 'PACKAGE_INVALID' });
  });

  it('a JSON syntax error names its line; a missing manifest is one problem', async () => {
    const copy = copyExample();
    writeFileSync(join(copy, 'agents.json'), '{\n  "schemaVersion": "1.1",\n  "agents": [,]\n}\n');
    const report = await validatePackage(copy);
    expect(report.problems).toContainEqual(
      expect.objectContaining({ code: 'PKG_INVALID_JSON', file: 'agents.json', line: 3 }),
    );
    rmSync(join(copy, 'bmad.json'));
    expect((await validatePackage(copy)).problems).toEqual([
      expect.objectContaining({ code: 'PKG_MISSING_FILE', file: 'bmad.json' }),
    ]);
  });
});
