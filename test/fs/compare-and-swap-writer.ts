// Child process of compare-and-swap.test.ts: prints `ready`, waits for a line on stdin, then writes the file
// once through fs.write with ifMatchSha256 and prints the ToolResult. Bundled by the test with esbuild.
import { createInterface } from 'node:readline';
import { fsTools } from '../../src/tools/fs/fs-tools.js';

const [project, expectedSha256, content] = process.argv.slice(2) as [string, string, string];
const write = fsTools({ mounts: { project } }).find((tool) => tool.name === 'fs.write')!;
const context = {
  signal: new AbortController().signal,
  runId: 'cas',
  toolCallId: 'c',
  projectRoot: project,
  logger: { debug() {}, info() {}, warn() {} },
};
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const _ of lines) {
  const result = await write.execute(
    { path: '@project/shared.txt', content, ifMatchSha256: expectedSha256 },
    context,
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
