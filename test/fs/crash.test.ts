import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readAuditLog } from '../../src/tools/audit-log-reader.js';
import { fsTools } from '../../src/tools/fs/fs-tools.js';
import { crashVersions } from './crash-versions.js';

const killsPerLane = 100;
const lanes = 2;
let base: string;
let bundle: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'spine-crash-'));
  bundle = join(base, 'crash-writer.mjs');
  // One bundle, so that each of the hundreds of children starts as fast as plain node.
  await build({
    entryPoints: [fileURLToPath(new URL('./crash-writer.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'silent',
    // CommonJS dependencies (yaml) call require(); an ESM bundle needs one made for it.
    banner: {
      js: "import { createRequire as createBannerRequire } from 'node:module'; const require = createBannerRequire(import.meta.url);",
    },
  });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Starts a writer, waits until it runs, lets it write for a random moment, then SIGKILLs it. */
async function killWriterOnce(project: string, state: string, auditPath: string): Promise<void> {
  const child = spawn(process.execPath, [bundle, project, state, auditPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', () => reject(new Error(`writer exited early: ${errors}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 25));
  child.kill('SIGKILL');
  const code = await exited;
  expect(errors).toBe('');
  expect(code).toBeNull();
}

const observed = new Set<string>();

function toolContext(project: string) {
  const logger = { debug() {}, info() {}, warn() {} };
  return { signal: new AbortController().signal, runId: 'r', toolCallId: 'c', projectRoot: project, logger };
}

async function runLane(lane: number): Promise<number> {
  const project = join(base, `project-${lane}`);
  const state = join(base, `state-${lane}`);
  const auditPath = join(state, 'audit.jsonl');
  const [oldContent, newContent] = crashVersions();
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'target.txt'), oldContent);
  let entriesSeen = 0;
  for (let kill = 0; kill < killsPerLane; kill += 1) {
    await killWriterOnce(project, state, auditPath);
    const content = readFileSync(join(project, 'target.txt'), 'utf8');
    expect(content === oldContent || content === newContent).toBe(true);
    observed.add(content === oldContent ? 'old' : 'new');
    const log = await readAuditLog(auditPath);
    for (const warning of log.warnings) expect(warning).toMatch(/torn last line|not an audit entry/);
    expect(log.entries.length).toBeGreaterThanOrEqual(entriesSeen);
    for (const entry of log.entries) expect(entry).toMatchObject({ tool: 'fs.write', outcome: 'ok' });
    entriesSeen = log.entries.length;
    // Leftovers of a killed write can only be its own temporary file and its lock.
    for (const name of readdirSync(project))
      expect(name === 'target.txt' || name.endsWith('.spine-tmp') || name.endsWith('.spine-lock')).toBe(true);
  }
  // The next write to the folder takes over a dead writer's lock and clears what killed writers left.
  const result = await fsTools({ mounts: { project } })
    .find((tool) => tool.name === 'fs.write')!
    .execute({ path: '@project/target.txt', content: oldContent }, toolContext(project));
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  expect(readdirSync(project)).toEqual(['target.txt']);
  return entriesSeen;
}

test(`a writer SIGKILLed ${killsPerLane * lanes} times leaves the old or the new content and a readable log`, async () => {
  const written = await Promise.all(Array.from({ length: lanes }, (_, lane) => runLane(lane)));
  for (const entries of written) expect(entries).toBeGreaterThan(0);
  // Kills landed at different points of the loop: both versions were found on disk after some kill.
  expect([...observed].sort()).toEqual(['new', 'old']);
}, 90_000);
