import { join, resolve } from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import { toolResultsFolder } from '../../engine/cap-tool-result.js';
import { auditLogFileName } from '../../engine/run-folder.js';
import { turnRecordsFileName } from '../../engine/turn-records.js';
import type { AuditLog } from '../../tools/audit-log.js';
import type { ToolDefinition } from '../../tools/define-tool.js';
import type { FsWriteRules } from '../../tools/fs/fs-context.js';
import { fsTools } from '../../tools/fs/fs-tools.js';
import { runFolderMarker } from '../../tools/fs/hidden-entries.js';
import { createToolHost, type ToolHost, type ToolSource } from '../../tools/tool-host.js';
import type { EffectiveToolPolicy } from '../prompt/tool-policy.js';
import { conversationLogFileName } from './conversation-log.js';
import { runLockFileName } from './run-lock.js';
import { runRecordFileName } from './run-record.js';

export const stateFileMountPath = '@state/workflow.md';
export const stateFileName = 'workflow.md';
const artifactsPrefix = '@project/artifacts/';

export interface WorkflowToolsOptions {
  project: string;
  /** The extracted package folder, mounted read-only as `@pkg`. */
  packageRoot: string;
  runDir: string;
  /** `@project` writable (`--write`); `@state` always is: the state is written there. */
  write: boolean;
  audit: AuditLog;
  /** The policy of the agent the run currently stands with (node agent, else the run's). */
  currentPolicy: () => { agentId: string; policy: EffectiveToolPolicy };
  /** The guard for the next text of `@state/workflow.md`; returns what the write reports. */
  guardState: (current: string, next: string) => Record<string, unknown>;
  /** Tools beside the fs tools (a tools module, skills). */
  extraTools?: ToolDefinition[];
  /** Sources listed at run time (MCP servers): offered while the agent's policy enables MCP. */
  toolSources?: ToolSource[];
}

/**
 * The tools of a workflow run: the sandboxed fs tools over `@project`, `@pkg` and `@state`, with the state
 * guard on every write of `@state/workflow.md` and each new file under `@project/artifacts/` recorded in the
 * state's `artifacts` (docs/workflows.md §2.5c), plus any extra tools. The policy — fs on or off, byte limits —
 * is the effective policy of the agent the run stands with, the same one its system message states: one host
 * per agent, picked at every call.
 */
export function createWorkflowTools(options: WorkflowToolsOptions): ToolHost {
  const hosts = new Map<string, ToolHost>();
  for (const source of options.toolSources ?? []) {
    const followed = source as { onToolsChanged?: (listener: () => void) => void };
    followed.onToolsChanged?.(() => {
      for (const host of hosts.values()) host.reload().catch(() => undefined);
    });
  }
  const hostFor = (): ToolHost => {
    const { agentId, policy } = options.currentPolicy();
    let host = hosts.get(agentId);
    if (host === undefined) {
      host = buildHost(options, policy);
      hosts.set(agentId, host);
    }
    return host;
  };
  return {
    ready: () => hostFor().ready(),
    reload: async () => {
      await Promise.all([...hosts.values()].map((host) => host.reload()));
    },
    get toolNames() {
      return hostFor().toolNames;
    },
    resolveName: (name) => hostFor().resolveName(name),
    wireName: (name) => hostFor().wireName(name),
    getVisibleTools: (context) => hostFor().getVisibleTools(context),
    execute: (call, context) => hostFor().execute(call, context),
  };
}

function buildHost(options: WorkflowToolsOptions, policy: EffectiveToolPolicy): ToolHost {
  const extra = [
    (options.extraTools ?? []).map((tool) => ({ ...tool, source: tool.source ?? 'module' })),
    ...(policy.mcp.enabled ? (options.toolSources ?? []) : []),
  ];
  if (!policy.fs.enabled) return createToolHost(extra, { audit: options.audit });
  let applyPatch: ToolDefinition | undefined;
  const writeRules: FsWriteRules = {
    guardFor: (display) => (display === stateFileMountPath ? options.guardState : undefined),
    afterCreate: async (display) => {
      if (!display.startsWith(artifactsPrefix)) return;
      await recordArtifact(applyPatch!, display.slice('@project/'.length));
    },
  };
  const tools = fsTools({
    mounts: {
      project: resolve(options.project),
      pkg: options.packageRoot,
      state: options.runDir,
    },
    readOnly: !options.write,
    limits: { readBytes: policy.fs.maxReadBytes, writeBytes: policy.fs.maxWriteBytes },
    hide: ['@project/.spine'],
    // What Spine keeps in the run folder is read-only to the tools: only the state file is the model's.
    readOnlyFiles: [
      auditLogFileName,
      turnRecordsFileName,
      conversationLogFileName,
      runRecordFileName,
      runLockFileName,
      runFolderMarker,
    ].map((name) => join(options.runDir, name)),
    readOnlyFolders: [join(options.runDir, toolResultsFolder)],
    writeRules,
  });
  applyPatch = tools.find((tool) => tool.name === 'fs.apply_patch');
  return createToolHost([tools, ...extra], { audit: options.audit });
}

/**
 * Appends a new artifact to the state through the same patch path the model uses, so the guard runs; its
 * failure is thrown, and the write that created the file is then undone.
 */
async function recordArtifact(applyPatch: ToolDefinition, projectPath: string): Promise<void> {
  const result = (await applyPatch.execute(
    {
      path: stateFileMountPath,
      operation: 'updateFrontmatter',
      update: { artifacts: { append: [projectPath] } },
    },
    {
      signal: new AbortController().signal,
      runId: '',
      toolCallId: 'artifact-record',
      projectRoot: '',
      logger: { debug() {}, info() {}, warn() {} },
    },
  )) as { ok: boolean; error?: { code: string; message: string; details?: Record<string, unknown> } };
  if (result.ok) return;
  throw new SpineError({
    code: result.error!.code as 'E_INTERNAL',
    message: `the new artifact ${projectPath} could not be recorded in the state, so it was not kept: ${result.error!.message}`,
    details: result.error!.details ?? {},
  });
}
