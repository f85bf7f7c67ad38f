import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerTurn, runCli, sentToolResults, toolCallTurn } from '../cli/cli-test-kit.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import { everythingEntry } from './mcp-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const endpoint = () => ['--base-url', runner.baseUrl, '--model', 'fake-model', '--max-retries', '0'];

describe('MCP servers through the CLI', () => {
  it('spine ask --mcp: the server’s tool is offered, called, its result sent back, and audited as mcp', async () => {
    const project = mkdtempSync(join(tmpdir(), 'spine-mcp-cli-'));
    runner.enqueue(
      toolCallTurn('mcp__everything__echo', { message: 'from the model' }),
      answerTurn('It echoed.'),
    );
    const run = await runCli(
      [
        'ask',
        'echo something',
        '--mcp',
        `everything=${process.execPath} ${everythingEntry} stdio`,
        '--project',
        project,
        '--json',
        ...endpoint(),
      ],
      { cwd: project },
    );
    expect(run.code).toBe(0);
    const offered = (runner.requests[0]!.body as { tools: Array<{ function: { name: string } }> }).tools.map(
      (tool) => tool.function.name,
    );
    expect(offered).toContain('mcp__everything__echo');
    expect(sentToolResults(runner.requests[1])).toEqual([
      { ok: true, content: [{ type: 'text', text: 'Echo: from the model' }] },
    ]);
    const { runDir } = JSON.parse(run.stdout) as { runDir: string };
    const audit = readFileSync(join(runDir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(audit).toEqual([
      expect.objectContaining({ tool: 'mcp__everything__echo', source: 'mcp:everything', outcome: 'ok' }),
    ]);
    // The server's stderr is in the run folder; the terminal got none of it.
    expect(readFileSync(join(runDir, 'mcp-everything.stderr.log'), 'utf8')).toContain('STDIO');
    expect(run.stderr).not.toContain('STDIO');
  });

  it('a server governance does not allow is never started', async () => {
    const project = mkdtempSync(join(tmpdir(), 'spine-mcp-gov-'));
    writeFileSync(
      join(project, 'spine.yaml'),
      [
        'models:',
        '  default:',
        '    id: fake-model',
        `    endpoint: ${runner.baseUrl}`,
        'mcp_servers:',
        '  everything:',
        `    command: ${process.execPath}`,
        `    args: [${everythingEntry}, stdio]`,
        'governance:',
        '  allowed_servers: [other]',
      ].join('\n'),
    );
    runner.enqueue(answerTurn('No tools.'));
    const run = await runCli(['ask', 'hi', '--project', project, '--max-retries', '0'], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('MCP server everything is not allowed by governance: not started');
    const offered = (
      (runner.requests[0]!.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []
    ).map((tool) => tool.function.name);
    expect(offered.some((name) => name.startsWith('mcp__'))).toBe(false);
  });
});
