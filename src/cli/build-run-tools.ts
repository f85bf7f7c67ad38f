import { join, resolve } from 'node:path';
import { toolResultsFolder } from '../engine/cap-tool-result.js';
import { auditLogFileName } from '../engine/run-folder.js';
import { turnRecordsFileName } from '../engine/turn-records.js';
import { createAuditLog } from '../tools/audit-log.js';
import type { ToolDefinition } from '../tools/define-tool.js';
import { fsTools } from '../tools/fs/fs-tools.js';
import { runFolderMarker } from '../tools/fs/hidden-entries.js';
import { createToolHost, type ToolHost } from '../tools/tool-host.js';
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
  /** Tools from `--tools-module`. */
  extraTools: ToolDefinition[];
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
  if (!options.fs) {
    return {
      host: createToolHost([moduleTools], { audit }),
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
    host: createToolHost([fileTools, moduleTools], { audit }),
    systemPrompt: composeSystemPrompt({ projectWritable: options.write, hasState: true }),
    auditPath,
  };
}
