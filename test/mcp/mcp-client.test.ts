import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../src/core/types.js';
import { type McpToolSource, mcpToolSource } from '../../src/tools/mcp/mcp-tool-source.js';
import { createToolHost } from '../../src/tools/tool-host.js';
import { killMatching } from '../support/processes.js';
import { everythingOverHttp, everythingOverStdio, filesystemOverStdio } from './mcp-kit.js';

let source: McpToolSource | undefined;
afterEach(async () => {
  await source?.close();
  source = undefined;
});

async function hostOver(
  specs: Parameters<typeof mcpToolSource>[0],
  options: Parameters<typeof mcpToolSource>[1] = {},
) {
  source = mcpToolSource(specs, options);
  const stderrFolder = mkdtempSync(join(tmpdir(), 'spine-mcp-run-'));
  source.setStderrFolder(stderrFolder);
  const host = createToolHost([source]);
  source.onToolsChanged(() => void host.reload());
  await host.ready();
  let calls = 0;
  const call = (name: string, args: Record<string, unknown>, signal?: AbortSignal) => {
    calls += 1;
    return host.execute(
      { id: `c${calls}`, name, arguments: args },
      { runId: 'r', projectRoot: '.', ...(signal ? { signal } : {}) },
    ) as Promise<ToolResult & Record<string, unknown>>;
  };
  return { host, call, stderrFolder };
}

describe('MCP servers as tools: server-everything over stdio', () => {
  it('lists its tools as mcp__everything__<tool> with their schemas, and calls them', async () => {
    const { host, call, stderrFolder } = await hostOver([everythingOverStdio()]);
    expect(host.toolNames).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__everything__get-sum',
        'mcp__everything__get-tiny-image',
      ]),
    );
    const sum = host
      .getVisibleTools()
      .find((tool) => tool.function.name === host.wireName('mcp__everything__get-sum'));
    expect(sum?.function.parameters).toMatchObject({ type: 'object', properties: { a: {}, b: {} } });
    expect(await call('mcp__everything__echo', { message: 'hello' })).toEqual({
      ok: true,
      content: [{ type: 'text', text: 'Echo: hello' }],
    });
    expect(await call('mcp__everything__get-sum', { a: 2, b: 3 })).toEqual({
      ok: true,
      content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }],
    });
    const image = await call('mcp__everything__get-tiny-image', {});
    expect(image.content).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'image', mimeType: 'image/png', data: expect.any(String) }),
      ]),
    );
    // The server's own stderr went to the run folder, not the terminal.
    expect(readFileSync(join(stderrFolder, 'mcp-everything.stderr.log'), 'utf8')).toContain('STDIO');
  });

  it('a long-running call is cancelled on the server when the run is stopped, and the server goes on serving', async () => {
    const { call } = await hostOver([everythingOverStdio()]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const cancelled = await call(
      'mcp__everything__trigger-long-running-operation',
      { duration: 30, steps: 30 },
      controller.signal,
    );
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'E_ABORTED' } });
    expect(await call('mcp__everything__echo', { message: 'still here' })).toMatchObject({ ok: true });
  });

  it('a tool error from the server is MCP_TOOL_ERROR with its text', async () => {
    const { call } = await hostOver([everythingOverStdio()]);
    const result = await call('mcp__everything__gzip-file-as-resource', {
      name: 'x.gz',
      data: 'not-a-url-at-all',
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'MCP_TOOL_ERROR', message: expect.any(String) },
    });
  });

  it('a tools/list_changed from the server makes the host list again', async () => {
    const { host } = await hostOver([everythingOverStdio()]);
    // server-everything registers more tools right after initialization and says so.
    const deadline = Date.now() + 10_000;
    while (!host.toolNames.includes('mcp__everything__simulate-research-query') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.toolNames).toContain('mcp__everything__simulate-research-query');
  });
});

describe('server-filesystem, and servers that crash', () => {
  it('reads in the folder it serves, refuses outside it, and a server killed between calls is started again', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'spine-mcp-fs-'));
    writeFileSync(join(folder, 'notes.txt'), 'alpha\n');
    const { call } = await hostOver([filesystemOverStdio(folder)]);
    const read = await call('mcp__files__read_text_file', { path: join(folder, 'notes.txt') });
    expect(JSON.stringify(read)).toContain('alpha');
    const outside = await call('mcp__files__read_text_file', { path: '/etc/hostname' });
    expect(outside.ok).toBe(false);
    expect(killMatching(folder)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = await call('mcp__files__list_directory', { path: folder });
    expect(JSON.stringify(again)).toContain('notes.txt');
  });

  it('a server that dies during a call gives a tool error, and the next call runs on a fresh server', async () => {
    const marker = `spine-crash-${process.pid}-${Date.now()}`;
    const spec = everythingOverStdio();
    const { call } = await hostOver([{ ...spec, args: [...(spec as { args: string[] }).args, marker] }]);
    const pending = call('mcp__everything__trigger-long-running-operation', { duration: 30, steps: 30 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(killMatching(marker)).toBe(1);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'MCP_REQUEST_FAILED' } });
    expect(await call('mcp__everything__echo', { message: 'back' })).toMatchObject({
      ok: true,
      content: [{ type: 'text', text: 'Echo: back' }],
    });
  });
});

describe('MCP over HTTP', () => {
  it('speaks Streamable HTTP, and falls back to SSE for a server that only has that', async () => {
    for (const transport of ['streamableHttp', 'sse'] as const) {
      const server = await everythingOverHttp(transport);
      try {
        const { call } = await hostOver([{ name: 'remote', url: server.url }]);
        expect(await call('mcp__remote__echo', { message: transport })).toEqual({
          ok: true,
          content: [{ type: 'text', text: `Echo: ${transport}` }],
        });
        await source?.close();
        source = undefined;
      } finally {
        server.stop();
      }
    }
  });

  it('a server that cannot be reached is left out with a warning; the others stay', async () => {
    const warnings: string[] = [];
    const { host } = await hostOver(
      [{ name: 'gone', url: 'http://127.0.0.1:9/mcp' }, everythingOverStdio()],
      {
        warn: (message) => warnings.push(message),
      },
    );
    expect(host.toolNames).toContain('mcp__everything__echo');
    expect(host.toolNames.some((name) => name.startsWith('mcp__gone__'))).toBe(false);
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) expect(warning).toMatch(/^MCP server gone left out: /);
  });
});
