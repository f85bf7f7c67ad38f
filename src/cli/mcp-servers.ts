import { resolve } from 'node:path';
import { SpineError } from '../core/spine-error.js';
import { type McpServerSpec, mcpServerNamePattern, parseMcpFlag } from '../tools/mcp/mcp-server-spec.js';
import { type McpToolSource, mcpToolSource } from '../tools/mcp/mcp-tool-source.js';
import { loadCommandConfig } from './command-config.js';
import { readPackageVersion } from './package-version.js';

/**
 * The MCP servers of a command: `--mcp NAME=COMMAND…` and `mcp_servers:` in spine.yaml, less those governance
 * does not admit — not in `allowed_servers` when that is set, or all of whose tools `blocked_tools` blocks
 * (`mcp__NAME__*`). A server that is not admitted is never started. Undefined when there are none.
 */
export async function loadMcpServers(
  flags: { mcp?: string[]; config?: string },
  cwd: string,
  warn: (message: string) => void,
): Promise<McpToolSource | undefined> {
  const specs: McpServerSpec[] = [];
  for (const value of flags.mcp ?? []) {
    try {
      specs.push(parseMcpFlag(value));
    } catch (error) {
      throw new SpineError({ code: 'CONFIG_INVALID', message: (error as Error).message });
    }
  }
  const loaded = await loadCommandConfig(flags, cwd);
  for (const [name, server] of Object.entries(loaded?.config.mcpServers ?? {})) {
    if (!mcpServerNamePattern.test(name)) continue;
    if (server.url !== undefined)
      specs.push({ name, url: server.url, ...(server.headers ? { headers: server.headers } : {}) });
    else if (server.command !== undefined)
      specs.push({
        name,
        command: server.command,
        args: server.args ?? [],
        ...(server.env ? { env: server.env } : {}),
        ...(server.cwd ? { cwd: resolve(loaded!.folder, server.cwd) } : {}),
      });
    else
      throw new SpineError({
        code: 'CONFIG_INVALID',
        message: `mcp_servers.${name}: give a command or a url`,
      });
  }
  const governance = loaded?.config.governance;
  const admitted = specs.filter((spec) => {
    const allowed = governance?.allowedServers === undefined || governance.allowedServers.includes(spec.name);
    const blocked = (governance?.blockedTools ?? []).some(
      (pattern) => pattern === `mcp__${spec.name}__*` || pattern === `mcp__${spec.name}`,
    );
    if (!allowed || blocked) warn(`MCP server ${spec.name} is not allowed by governance: not started`);
    return allowed && !blocked;
  });
  if (admitted.length === 0) return undefined;
  return mcpToolSource(admitted, { warn, clientVersion: readPackageVersion() });
}
