// Runs every client scenario for one driver in a fresh process (so peak RSS is that client's own) and prints
// one JSON line of figures. Usage: node client-child.mjs DRIVER BASE_URL
import { driverFactories } from './client-drivers.mjs';

const [driverName, baseUrl] = process.argv.slice(2);
const driver = await driverFactories[driverName](baseUrl);

const expectedStream = (count) => Array.from({ length: count }, (_, i) => `tok${i} `).join('');
const expectedArgs = { path: 'src/index.ts', content: 'x'.repeat(600) };

function check(scenario, result) {
  const ok =
    scenario === 'small'
      ? result.content === 'Hello from the bench server.'
      : scenario === 'tool200'
        ? JSON.stringify(JSON.parse(result.args)) === JSON.stringify(expectedArgs)
        : result.content === expectedStream(scenario === 'stream500' ? 500 : 50);
  if (!ok)
    throw new Error(
      `${driver.name} gave a wrong answer for ${scenario}: ${JSON.stringify(result).slice(0, 200)}`,
    );
}

async function measure(scenario, iterations, concurrency = 1) {
  const stream = scenario !== 'small';
  const once = async () => check(scenario, await driver.call(scenario, stream));
  for (let i = 0; i < 20; i++) await once(); // warm-up: JIT and keep-alive sockets
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  for (let i = 0; i < iterations; i += concurrency) {
    await Promise.all(Array.from({ length: concurrency }, once));
  }
  const cpu = process.cpuUsage(cpuStart);
  const requests = Math.ceil(iterations / concurrency) * concurrency;
  return {
    cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / requests,
    wallMsPerRequest: (performance.now() - wallStart) / requests,
  };
}

async function measureFirstDelta(iterations) {
  const samples = [];
  for (let i = 0; i < iterations + 5; i++) {
    const start = performance.now();
    let first = 0;
    await driver.call('firstDelta', true, () => {
      if (first === 0) first = performance.now() - start;
    });
    if (i >= 5) samples.push(first);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const figures = {
  small: await measure('small', 400),
  stream500: await measure('stream500', 60),
  tool200: await measure('tool200', 150),
  concurrent32: await measure('stream50', 320, 32),
  firstDeltaMs: await measureFirstDelta(40),
  peakRssMb: process.resourceUsage().maxRSS / 1024,
};
process.stdout.write(`${JSON.stringify({ name: driver.name, figures })}\n`);
process.exit(0);
