import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { McpServerSpec } from '../../src/tools/mcp/mcp-server-spec.js';

// The reference MCP servers from npm, started from node_modules: no network, no download at test time.
export const everythingEntry = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemEntry = resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export function everythingOverStdio(name = 'everything'): McpServerSpec {
  return { name, command: process.execPath, args: [everythingEntry, 'stdio'] };
}

export function filesystemOverStdio(folder: string, name = 'files'): McpServerSpec {
  return { name, command: process.execPath, args: [filesystemEntry, folder] };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** server-everything over HTTP (`streamableHttp` or the legacy `sse`), on a free loopback port; stop() ends it. */
export async function everythingOverHttp(
  transport: 'streamableHttp' | 'sse',
): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error('the MCP HTTP server did not start')), 15_000);
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (/listening|running/i.test(text)) {
        clearTimeout(timer);
        ready();
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
    stop: () => child.kill('SIGKILL'),
  };
}
