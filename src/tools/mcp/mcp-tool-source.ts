import { join } from 'node:path';
import { registerSecret } from '../../core/secrets.js';
import { SpineError } from '../../core/spine-error.js';
import type { ToolResult } from '../../core/types.js';
import type { ToolDefinition } from '../define-tool.js';
import type { ToolSource } from '../tool-host.js';
import { type McpCallOutcome, McpConnection } from './mcp-connection.js';
import { type McpServerSpec, mcpToolName } from './mcp-server-spec.js';

export interface McpToolSourceOptions {
  /** Per call (default 60 s); the host's timeout and Ctrl+C cancel the request on the server too. */
  timeoutMs?: number;
  /** Told when a server cannot be started or listed: its tools are then missing, the others stay. */
  warn?: (message: string) => void;
  clientVersion?: string;
}

/** The tools of MCP servers for a ToolHost, plus what a host needs to follow them. */
export interface McpToolSource extends ToolSource {
  readonly serverNames: string[];
  /** Where each server's stderr goes (`mcp-<name>.stderr.log`); set before the first use. */
  setStderrFolder(folder: string): void;
  /** Called when a server's tool list changed: the host should list again (`host.reload()`). */
  onToolsChanged(listener: () => void): void;
  /** Stops every server this source started. */
  close(): Promise<void>;
}

/**
 * MCP servers as one tool source: each server's tools join the host as `mcp__<server>__<tool>` with their own
 * input schemas. A result's content (text, images, resources) becomes the ToolResult's `content`; `isError` is a
 * tool error (`MCP_TOOL_ERROR`); a server that crashed is a tool error (`MCP_REQUEST_FAILED`) and is started
 * again at the next call. Servers start on first use (when the host lists its tools).
 */
export function mcpToolSource(
  specs: readonly McpServerSpec[],
  options: McpToolSourceOptions = {},
): McpToolSource {
  let stderrFolder: string | undefined;
  const listeners = new Set<() => void>();
  for (const spec of specs)
    if ('headers' in spec) for (const value of Object.values(spec.headers ?? {})) registerSecret(value);
  const connections = specs.map(
    (spec) =>
      new McpConnection(spec, {
        onToolsChanged: () => {
          for (const listener of listeners) listener();
        },
        ...(options.clientVersion ? { clientVersion: options.clientVersion } : {}),
        get stderrPath() {
          return stderrFolder === undefined ? undefined : join(stderrFolder, `mcp-${spec.name}.stderr.log`);
        },
      }),
  );
  const timeoutMs = options.timeoutMs ?? 60_000;
  return {
    serverNames: specs.map((spec) => spec.name),
    setStderrFolder: (folder) => {
      stderrFolder = folder;
    },
    onToolsChanged: (listener) => {
      listeners.add(listener);
    },
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
    tools: async () => {
      const lists = await Promise.all(
        connections.map(async (connection) => {
          try {
            return (await connection.listTools()).map((tool) => toDefinition(connection, tool, timeoutMs));
          } catch (error) {
            options.warn?.(`MCP server ${connection.spec.name} left out: ${(error as Error).message}`);
            return [];
          }
        }),
      );
      return lists.flat();
    },
  };
}

function toDefinition(
  connection: McpConnection,
  tool: { name: string; description?: string; inputSchema: Record<string, unknown> },
  timeoutMs: number,
): ToolDefinition<never> {
  const server = connection.spec.name;
  const definition: ToolDefinition<Record<string, unknown>> = {
    name: mcpToolName(server, tool.name),
    description: tool.description ?? `${tool.name} (MCP server ${server})`,
    parameters: tool.inputSchema,
    source: `mcp:${server}`,
    timeoutMs,
    execute: async (args, context): Promise<ToolResult> => {
      let outcome: McpCallOutcome;
      try {
        // The host's timeout aborts the signal first; the SDK's own limit is only a backstop.
        outcome = await connection.callTool(tool.name, args, {
          signal: context.signal,
          timeoutMs: timeoutMs + 5_000,
        });
      } catch (error) {
        if (context.signal.aborted)
          throw new SpineError({
            code: 'E_ABORTED',
            message: `${tool.name} was cancelled; MCP server ${server} was told (notifications/cancelled)`,
            details: { server, tool: tool.name },
          });
        throw new SpineError({
          code: 'MCP_REQUEST_FAILED',
          message: `MCP server ${server} failed on ${tool.name}: ${(error as Error).message} (it is started again at the next call)`,
          details: { server, tool: tool.name },
          cause: error,
        });
      }
      if (outcome.isError) {
        const text = outcome.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
        return {
          ok: false,
          error: {
            code: 'MCP_TOOL_ERROR',
            message: text || `${tool.name} failed`,
            details: { server, tool: tool.name },
          },
        };
      }
      const result: ToolResult = { ok: true, content: outcome.content };
      if (outcome.structuredContent !== undefined) result.structuredContent = outcome.structuredContent;
      return result;
    },
  };
  return definition as unknown as ToolDefinition<never>;
}
