// `npm run demo`: Spine's main job on a fresh clone, with no model runner installed. `spine ask` runs an agent
// over this repository (read-only fs tools) against the loopback stand-in model in demo-model.mjs.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDemoModel } from './demo-model.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const model = await startDemoModel();
const task = 'What is this project, and what does it depend on?';
console.log(`$ spine ask "${task}" --project . --base-url ${model.baseUrl} --model demo\n`);
const child = spawn(
  process.execPath,
  [`${root}dist/cli/main.js`, 'ask', task, '--project', root, '--base-url', model.baseUrl, '--model', 'demo'],
  { stdio: 'inherit', cwd: root },
);
child.on('exit', (code) => {
  model.close();
  process.exitCode = code ?? 1;
});
