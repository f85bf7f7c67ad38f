import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  auditLogFileName,
  markRunFolderSync,
  prepareSpineFolder,
  resolveRunDir,
} from '../../engine/run-folder.js';
import { newRunId } from '../../engine/run-id.js';
import { turnRecordsFileName } from '../../engine/turn-records.js';
import { createAuditLog } from '../../tools/audit-log.js';
import { fsTools } from '../../tools/fs/fs-tools.js';
import { runFolderMarker } from '../../tools/fs/hidden-entries.js';
import { serveToolsOverMcp } from '../../tools/mcp/serve-tools-over-mcp.js';
import { createToolHost } from '../../tools/tool-host.js';
import { loadSkillTools } from '../load-skill-tools.js';
import { readPackageVersion } from '../package-version.js';
import { reportError } from '../report-error.js';
import { collect } from '../skill-roots.js';

interface McpServerFlags {
  project?: string;
  write?: boolean;
  pkg?: string;
  runDir?: string;
  skills?: string[];
  config?: string;
}

export function registerMcpServerCommand(program: Command): void {
  program
    .command('mcp-server')
    .description("serve Spine's sandboxed fs tools (and skills) to any MCP client over stdio")
    .option('--project <dir>', 'the folder served as @project (default: the current folder)')
    .option('--write', 'let the client write into @project (read-only without it)')
    .option('--pkg <dir>', 'a folder served read-only as @pkg')
    .option(
      '--run-dir <dir>',
      'the folder served as @state, holding the audit log (default: a new run folder)',
    )
    .option('--skills <dir>', 'a skills folder whose tools to serve too; repeatable', collect)
    .option('--config <file>', 'the config whose skills: folders to read')
    .action(async (flags: McpServerFlags) => {
      try {
        const cwd = process.cwd();
        const project = resolve(cwd, flags.project ?? '.');
        const runId = newRunId();
        const runDir = resolveRunDir({ runDir: flags.runDir, project, runId, cwd });
        if (flags.runDir === undefined) prepareSpineFolder(project);
        markRunFolderSync(runDir);
        const auditPath = join(runDir, auditLogFileName);
        const files = fsTools({
          mounts: { project, state: runDir, ...(flags.pkg ? { pkg: resolve(cwd, flags.pkg) } : {}) },
          readOnly: !flags.write,
          hide: ['@project/.spine'],
          readOnlyFiles: [auditPath, join(runDir, turnRecordsFileName), join(runDir, runFolderMarker)],
        });
        // Skill problems and the sandbox warning go to stderr: stdout is the protocol's.
        const skills = await loadSkillTools(flags, cwd);
        const host = createToolHost([files, skills], { audit: createAuditLog(auditPath) });
        process.stderr.write(
          `spine mcp-server: @project ${project}${flags.write ? ' (writable)' : ''}, audit ${auditPath}\n`,
        );
        await serveToolsOverMcp(host, {
          name: 'spine',
          version: readPackageVersion(),
          runId,
          projectRoot: project,
        });
      } catch (error) {
        reportError(error, false);
      }
    });
}
