import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SpineError } from '../core/spine-error.js';
import type { ToolDefinition } from '../tools/define-tool.js';
import type { McpToolSource } from '../tools/mcp/mcp-tool-source.js';
import { parseCount } from './endpoint-options.js';
import { loadSkillTools } from './load-skill-tools.js';
import { loadToolsModule } from './load-tools-module.js';
import { loadMcpServers } from './mcp-servers.js';
import type { RunFlags } from './run-options.js';

/** The run flags, checked and resolved once per command (a chat's conversations all share them). */
export interface RunSettings {
  project: string;
  write: boolean;
  fs: boolean;
  runDir: string | undefined;
  maxTurns: number | undefined;
  /** Output tokens per model call; the runner's own default when absent. */
  maxTokens: number | undefined;
  extraTools: ToolDefinition[];
  /** MCP servers' tools (started on first use); close it when the command ends. */
  mcp: McpToolSource | undefined;
  showReasoning: boolean;
  cwd: string;
}

export async function readRunSettings(flags: RunFlags, cwd: string = process.cwd()): Promise<RunSettings> {
  // Zero turns would end every run before the model is asked anything.
  const maxTurns = parseCount(flags.maxTurns, '--max-turns', 1);
  const maxTokens = parseCount(flags.maxTokens, '--max-tokens', 1);
  const project = resolve(cwd, flags.project ?? '.');
  await mustBeFolder(project, flags.project ?? '.');
  const extraTools = flags.toolsModule ? await loadToolsModule(flags.toolsModule, cwd) : [];
  extraTools.push(...(await loadSkillTools(flags, cwd)));
  const mcp = await loadMcpServers(flags, cwd, (message) => process.stderr.write(`warning: ${message}\n`));
  return {
    project,
    write: Boolean(flags.write),
    fs: flags.fs !== false,
    runDir: flags.runDir,
    maxTurns,
    maxTokens,
    extraTools,
    mcp,
    showReasoning: Boolean(flags.showReasoning),
    cwd,
  };
}

/** Checked before anything is created under it: a mistyped --project must not become a new empty folder. */
async function mustBeFolder(path: string, given: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory()) return;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message: `--project ${given}: ${found ? 'not a folder' : 'no such folder'} (${path})`,
  });
}
