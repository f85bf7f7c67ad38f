import { join, resolve } from 'node:path';
import { toolResultsFolder } from '../engine/cap-tool-result.js';
import { auditLogFileName } from '../engine/run-folder.js';
import { turnRecordsFileName } from '../engine/turn-records.js';
import { createAuditLog } from '../tools/audit-log.js';
import type { ToolDefinition } from '../tools/define-tool.js';
import { fsTools } from '../tools/fs/fs-tools.js';
import { runFolderMarker } from '../tools/fs/hidden-entries.js';
import type { McpToolSource } from '../tools/mcp/mcp-tool-source.js';
import { createToolHost, type ToolHost, type ToolHostSource } from '../tools/tool-host.js';
import { composeSystemPrompt } from './compose-system-prompt.js';
import { conversationFileName } from './saved-conversation.js';

export interface RunToolsOptions {
  /** The folder mounted as `@project`. */
  project: string;
  /** The run folder, mounted as `@state`; the audit log is written in it. */
  runDir: string;
  /** Without it `@project` is read-only. */
  write: boolean;
  /** False leaves the fs tools out. */
  fs: boolean;
  /** Tools from `--tools-module` and `--skills`. */
  extraTools: ToolDefinition[];
  /** MCP servers' tools; their stderr goes to the run folder. */
  mcp?: McpToolSource | undefined;
}

export interface RunTools {
  host: ToolHost;
  systemPrompt: string;
  /** Undefined without the fs tools. */
  /** The run's audit log: every tool call of every source. */
  auditPath: string;
}

/**
 * The tools of one CLI run: the sandboxed fs tools over `@project` and `@state`, then the module's tools, all
 * audited by the host (one line per call of every source in the run folder's `audit.jsonl`).
 */
export function buildRunTools(options: RunToolsOptions): RunTools {
  const auditPath = join(options.runDir, auditLogFileName);
  const audit = createAuditLog(auditPath);
  const moduleTools = options.extraTools.map((tool) => ({ ...tool, source: tool.source ?? 'module' }));
  const mcp: ToolHostSource[] = options.mcp === undefined ? [] : [options.mcp];
  options.mcp?.setStderrFolder(options.runDir);
  if (!options.fs) {
    return {
      host: followMcpChanges(createToolHost([moduleTools, ...mcp], { audit }), options.mcp),
      systemPrompt: composeSystemPrompt(undefined),
      auditPath,
    };
  }
  const fileTools = fsTools({
    mounts: { project: resolve(options.project), state: options.runDir },
    readOnly: !options.write,
    // Write tools only with --write: their definitions cost more tokens than the read tools together.
    writeTools: options.write,
    // Run records (this run's and earlier ones) are Spine's, not the model's: reach them through @state only.
    hide: ['@project/.spine'],
    // What Spine writes in the run folder is read-only to the tools, so a model cannot rewrite its own record.
    readOnlyFiles: [
      auditPath,
      join(options.runDir, turnRecordsFileName),
      join(options.runDir, conversationFileName),
      join(options.runDir, runFolderMarker),
    ],
    readOnlyFolders: [join(options.runDir, toolResultsFolder)],
  });
  return {
    host: followMcpChanges(createToolHost([fileTools, moduleTools, ...mcp], { audit }), options.mcp),
    systemPrompt: composeSystemPrompt({ projectWritable: options.write, hasState: true }),
    auditPath,
  };
}

/** A server's `tools/list_changed` makes the host list its tools again. */
function followMcpChanges(host: ToolHost, mcp: McpToolSource | undefined): ToolHost {
  mcp?.onToolsChanged(() => {
    host.reload().catch(() => undefined);
  });
  return host;
}
