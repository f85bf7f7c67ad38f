// Cold-start benchmark (issue 13): whole processes, wall time, median of several runs, all in this one run so the
// ratios compare like with like: node alone, importing Spine and the openai package, `spine --help`, and one
// non-streamed call to the loopback bench server through `spine complete` and through the openai package.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const runs = 9;

function medianMs(args, check) {
  const times = [];
  for (let run = 0; run < runs + 1; run += 1) {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
    check?.(result.stdout);
    if (run > 0) times.push(ms); // the first run warms the file cache
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)];
}

export async function run() {
  const server = spawn(process.execPath, [here('bench-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(createInterface({ input: server.stdout }), 'line');
  const baseUrl = `http://127.0.0.1:${JSON.parse(line).port}/v1`;
  try {
    const openaiCall = `import OpenAI from 'openai'; const c = new OpenAI({ baseURL: '${baseUrl}', apiKey: 'x', maxRetries: 0 }); const r = await c.chat.completions.create({ model: 'small', messages: [{ role: 'user', content: 'hi' }] }); if (!r.choices[0]) process.exit(1);`;
    const rows = [
      ['node -e 0', medianMs(['-e', '0'])],
      ["import('spine-llm')", medianMs(['--input-type=module', '-e', "await import('./dist/index.js')"])],
      ["import('openai')", medianMs(['--input-type=module', '-e', "await import('openai')"])],
      ['spine --help', medianMs(['dist/cli/main.js', '--help'])],
      [
        'spine complete (one call)',
        medianMs(
          [
            'dist/cli/main.js',
            'complete',
            'hi',
            '--base-url',
            baseUrl,
            '--model',
            'small',
            '--max-retries',
            '0',
          ],
          (out) => {
            if (out.trim() === '') throw new Error('spine complete printed no answer');
          },
        ),
      ],
      ['openai package (one call)', medianMs(['--input-type=module', '-e', openaiCall])],
    ];
    const node = rows[0][1];
    console.log(`whole process, median of ${runs} runs (wall ms) | × node alone`);
    for (const [name, ms] of rows)
      console.log(`${name.padEnd(26)} | ${ms.toFixed(0).padStart(5)} ms | ${(ms / node).toFixed(2)}×`);
    const spineImport = rows[1][1];
    const openaiImport = rows[2][1];
    console.log(`import('spine-llm') / import('openai'): ${(spineImport / openaiImport).toFixed(2)}×`);
  } finally {
    server.kill('SIGTERM');
  }
}
