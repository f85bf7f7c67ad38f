import type { ToolHost } from '../tool-host.js';

export interface McpServeOptions {
  name: string;
  version: string;
  runId: string;
  projectRoot: string;
  /** Resolves when the client has gone away (stdin closed). */
  onClose?: () => void;
}

/**
 * Serves a ToolHost's tools to any MCP client over stdio: `tools/list` gives their wire names (`fs_read`: the
 * names every client accepts) and schemas; `tools/call` runs the call through the host — the same validation,
 * sandbox, limits and audit log as in a Spine run — and returns the ToolResult as JSON text, `isError` when it
 * failed. A cancelled request aborts the tool.
 */
export async function serveToolsOverMcp(host: ToolHost, options: McpServeOptions): Promise<void> {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import(
    '@modelcontextprotocol/sdk/types.js'
  );
  await host.ready();
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: host.getVisibleTools().map((tool) => ({
      name: tool.function.name,
      description: tool.function.description ?? '',
      inputSchema: (tool.function.parameters ?? { type: 'object' }) as { type: 'object' },
    })),
  }));
  let calls = 0;
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    calls += 1;
    const result = await host.execute(
      { id: `mcp-${calls}`, name: request.params.name, arguments: request.params.arguments ?? {} },
      { runId: options.runId, projectRoot: options.projectRoot, signal: extra.signal },
    );
    return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], isError: !result.ok };
  });
  server.onclose = () => options.onClose?.();
  await server.connect(new StdioServerTransport());
}
