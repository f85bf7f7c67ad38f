// Client benchmark: Spine against the floor (fetch + hand SSE loop), undici.request, the openai SDK and the
// Vercel AI SDK, all against one loopback server in its own process. CPU per request is process.cpuUsage in
// the client's process; every answer is checked.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));

async function startServer() {
  const child = spawn(process.execPath, [here('bench-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  return { child, baseUrl: `http://127.0.0.1:${JSON.parse(line).port}/v1` };
}

async function runDriver(name, baseUrl) {
  const child = spawn(process.execPath, [here('client-child.mjs'), name, baseUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (part) => {
    output += part;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`bench driver ${name} failed (exit ${code})`);
  return JSON.parse(output.trim().split('\n').pop());
}

const format = (value, digits = 3) => value.toFixed(digits);

export async function run() {
  const server = await startServer();
  try {
    const results = [];
    for (const name of ['floor', 'undici', 'spine', 'openai', 'aisdk'])
      results.push(await runDriver(name, server.baseUrl));
    const floor = results[0].figures;
    const rows = [];
    for (const scenario of ['small', 'stream500', 'tool200', 'concurrent32']) {
      for (const { name, figures } of results) {
        const cpu = figures[scenario].cpuMsPerRequest;
        rows.push(
          `| ${scenario} | ${name} | ${format(cpu)} | ${format(cpu / floor[scenario].cpuMsPerRequest, 2)}x | ${format(figures[scenario].wallMsPerRequest)} |`,
        );
      }
    }
    console.log('\n## Client: CPU and wall time per request (ratios to the floor)\n');
    console.log('| scenario | client | CPU ms/req | CPU vs floor | wall ms/req |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
    console.log('\n| client | peak RSS MB | first text-delta ms (median) | added vs floor ms |');
    console.log('| --- | --- | --- | --- |');
    for (const { name, figures } of results) {
      console.log(
        `| ${name} | ${format(figures.peakRssMb, 1)} | ${format(figures.firstDeltaMs)} | ${format(figures.firstDeltaMs - floor.firstDeltaMs)} |`,
      );
    }
  } finally {
    server.child.kill('SIGTERM');
  }
}
