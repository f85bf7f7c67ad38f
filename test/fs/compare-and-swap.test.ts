import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';

// Two processes write one file, both with the right ifMatchSha256, released at the same moment: exactly one may
// win, the other must be told the file changed, and the file must hold the winner's content whole.
const trials = 30;
let base: string;
let bundle: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'spine-cas-'));
  bundle = join(base, 'writer.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./compare-and-swap-writer.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'silent',
    banner: {
      js: "import { createRequire as createBannerRequire } from 'node:module'; const require = createBannerRequire(import.meta.url);",
    },
  });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Writer {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  result: Promise<{ ok: boolean; error?: { code: string } }>;
}

function startWriter(project: string, expected: string, content: string): Writer {
  const child = spawn(process.execPath, [bundle, project, expected, content]);
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.startsWith('ready\n')) resolve();
    });
  });
  const result = new Promise<{ ok: boolean; error?: { code: string } }>((resolve, reject) => {
    child.on('exit', () => {
      const line = output.split('\n')[1];
      if (!line) reject(new Error(`writer printed no result: ${errors}`));
      else resolve(JSON.parse(line));
    });
  });
  return { child, ready, result };
}

test(`ifMatchSha256 holds across processes: ${trials} races, one winner each, nothing lost or torn`, async () => {
  for (let trial = 0; trial < trials; trial += 1) {
    const project = join(base, `project-${trial}`);
    const original = `original ${trial}\n`;
    mkdirSync(project);
    writeFileSync(join(project, 'shared.txt'), original);
    const expected = createHash('sha256').update(original).digest('hex');
    const contents = [`from A ${trial}\n`.repeat(2000), `from B ${trial}\n`.repeat(2000)];
    const writers = contents.map((content) => startWriter(project, expected, content));
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.child.stdin.write('go\n');
    const results = await Promise.all(writers.map((writer) => writer.result));

    const winners = results.flatMap((result, index) => (result.ok ? [index] : []));
    expect(winners).toHaveLength(1);
    const loser = results.find((result) => !result.ok);
    expect(loser?.error?.code).toBe('E_PRECONDITION_FAILED');
    expect(readFileSync(join(project, 'shared.txt'), 'utf8')).toBe(contents[winners[0] as number]);
    expect(readdirSync(project)).toEqual(['shared.txt']);
  }
}, 120_000);
