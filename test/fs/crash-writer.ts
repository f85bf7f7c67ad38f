// Child process of crash.test.ts: writes the two versions of one file in turn through fs.write, for ever,
// until it is killed. Bundled by the test with esbuild so that a spawn costs a plain node start.
import { fsTools } from '../../src/tools/fs/fs-tools.js';
import { crashVersions } from './crash-versions.js';

const [project, state, auditPath] = process.argv.slice(2) as [string, string, string];
const write = fsTools({ mounts: { project, state }, audit: { path: auditPath } }).find(
  (tool) => tool.name === 'fs.write',
)!;
const silent = { debug() {}, info() {}, warn() {} };
const context = {
  signal: new AbortController().signal,
  runId: 'crash',
  toolCallId: 'c',
  projectRoot: project,
  logger: silent,
};
const versions = crashVersions();
process.stdout.write('ready\n');
for (let index = 0; ; index += 1) {
  const result = (await write.execute(
    { path: '@project/target.txt', content: versions[index % 2]! },
    context,
  )) as { ok: boolean };
  if (!result.ok) {
    process.stderr.write(`${JSON.stringify(result)}\n`);
    process.exit(3);
  }
}
