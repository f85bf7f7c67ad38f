/** One MCP server as configured: a command to start (stdio) or a URL to reach (Streamable HTTP, legacy SSE). */
export type McpServerSpec =
  | { name: string; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { name: string; url: string; headers?: Record<string, string> };

/** Server names become part of tool names (`mcp__<server>__<tool>`): the provider name pattern allows these. */
export const mcpServerNamePattern = /^[A-Za-z0-9_-]+$/;

/** `--mcp NAME=COMMAND ARGS…`: the command line split on spaces (quote-free; use spine.yaml for anything else). */
export function parseMcpFlag(value: string): McpServerSpec {
  const equals = value.indexOf('=');
  const name = value.slice(0, equals);
  const words = value
    .slice(equals + 1)
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (equals <= 0 || !mcpServerNamePattern.test(name) || words.length === 0) {
    throw new Error(`--mcp ${value}: expected NAME=COMMAND [ARGS…], NAME of letters, digits, _ and -`);
  }
  if (/^https?:\/\//.test(words[0]!)) return { name, url: words[0]! };
  return { name, command: words[0]!, args: words.slice(1) };
}

/** The host's name of a server's tool. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}
