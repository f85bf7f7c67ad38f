import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext, ToolDefinition } from '../../src/tools/define-tool.js';
import { type FsToolsOptions, fsTools } from '../../src/tools/fs/fs-tools.js';

export const secretText = 'TOP-SECRET-7f3a9c';

export interface Sandbox {
  base: string;
  project: string;
  pkg: string;
  state: string;
  outside: string;
  auditPath: string;
  tools: Map<string, ToolDefinition>;
  call(name: string, args: unknown): Promise<Record<string, unknown>>;
  /** Every file and folder outside the mounts, with its content hash, for before/after comparisons. */
  snapshotOutside(): Record<string, string>;
  cleanup(): void;
}

const silent = { debug() {}, info() {}, warn() {} };

/** A temp folder with project/, pkg/, state/ and, beside them, a secret folder and a look-alike project-other/. */
export function createSandbox(options: Partial<FsToolsOptions> = {}): Sandbox {
  const base = mkdtempSync(join(tmpdir(), 'spine-fs-'));
  const project = join(base, 'proj');
  const pkg = join(base, 'pkg');
  const state = join(base, 'state');
  const outside = join(base, 'secret');
  for (const folder of [project, pkg, state, outside, join(base, 'proj-other')]) mkdirSync(folder);
  writeFileSync(join(outside, 'secret.txt'), `${secretText}\n`);
  writeFileSync(join(base, 'proj-other', 'other.txt'), `${secretText} in the look-alike\n`);
  writeFileSync(join(project, 'readme.md'), '# Project\nhello world\n');
  writeFileSync(join(pkg, 'workflow.graph.json'), '{"nodes":[]}\n');
  const auditPath = join(state, 'audit.jsonl');
  const list = fsTools({ mounts: { project, pkg, state }, audit: { path: auditPath }, ...options });
  const tools = new Map(list.map((tool) => [tool.name, tool]));
  const controller = new AbortController();
  const context: ToolContext = {
    signal: controller.signal,
    runId: 'run-test',
    toolCallId: 'call-1',
    projectRoot: project,
    logger: silent,
  };
  return {
    base,
    project,
    pkg,
    state,
    outside,
    auditPath,
    tools,
    call: async (name, args) =>
      (await tools.get(name)!.execute(args as Record<string, unknown>, context)) as Record<string, unknown>,
    snapshotOutside: () => ({
      ...snapshot(outside),
      ...snapshot(join(base, 'proj-other')),
      ...snapshotTop(base),
    }),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

function snapshot(folder: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const stats = lstatSync(path);
    result[path] = stats.isFile() ? `${stats.mode}:${hash(readFileSync(path))}` : `${stats.mode}`;
  }
  return result;
}

function snapshotTop(base: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(base).map((name) => [join(base, name), `${lstatSync(join(base, name)).mode}`]),
  );
}

function hash(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * How the escape suite reaches the tools: directly, or through `spine mcp-server` over stdio with the SDK's
 * client (escape-over-mcp.test.ts), so every attack the fs tools refuse is shown refused over MCP too.
 */
export let sandboxTransport: 'direct' | 'mcp' = 'direct';
export function useSandboxTransport(transport: 'direct' | 'mcp'): void {
  sandboxTransport = transport;
}

/** The same sandbox, its calls sent to a `spine mcp-server` serving its mounts (with --write). */
export async function overMcp(sandbox: Sandbox): Promise<Sandbox & { close(): Promise<void> }> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { pathToFileURL } = await import('node:url');
  const { resolve } = await import('node:path');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href,
      resolve('src/cli/main.ts'),
      'mcp-server',
      '--project',
      sandbox.project,
      '--write',
      '--pkg',
      sandbox.pkg,
      '--run-dir',
      sandbox.state,
    ],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'escape-suite', version: '1' }, { capabilities: {} });
  await client.connect(transport);
  const wireNames = new Map(
    (await client.listTools()).tools.map((tool) => [tool.name.replace('_', '.'), tool.name]),
  );
  return {
    ...sandbox,
    call: async (name, args) => {
      const result = await client.callTool({
        name: wireNames.get(name) ?? name,
        arguments: args as Record<string, unknown>,
      });
      const text = (result.content as Array<{ type: string; text: string }>)[0]?.text ?? '{}';
      return JSON.parse(text) as Record<string, unknown>;
    },
    close: () => client.close(),
  };
}
