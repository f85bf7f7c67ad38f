import type { Command } from 'commander';
import { reportError } from '../report-error.js';
import { addRunOptions, type RunFlags } from '../run-options.js';

interface ResumeFlags extends RunFlags {
  input?: string;
  json?: boolean;
}

export function registerResumeCommand(program: Command): void {
  addRunOptions(
    program
      .command('resume')
      .description(
        'continue a workflow run that is not running, from its state file (after a stop or a crash)',
      )
      .argument('<run>', 'the run id (see spine runs)')
      .option('--input <text>', 'the user’s answer to where the run stopped')
      .option(
        '--json',
        'never prompt; print {runId, phase, currentNodeId, assistantText, state} at the stop',
      ),
  ).action(async (runId: string, flags: ResumeFlags) => {
    const json = Boolean(flags.json);
    try {
      // Loaded when the command runs: `spine --help` lists every command without loading them.
      const { openRunPackage } = await import('../../workflow/run/open-run-package.js');
      const { resumeRun } = await import('../../workflow/run/resume-run.js');
      const { driveWorkflowRun } = await import('../drive-workflow-run.js');
      const { readRunSettings } = await import('../run-settings.js');
      const { openWorkflowTerminal } = await import('../workflow-terminal.js');
      const settings = await readRunSettings(flags);
      const terminal = await openWorkflowTerminal(flags, settings, json);
      const run = await resumeRun(runId, {
        ...terminal.runOptions,
        toolPolicy: terminal.toolPolicy,
        project: settings.project,
        openPackage: openRunPackage,
      });
      settings.mcp?.setStderrFolder(run.runDir);
      try {
        await driveWorkflowRun(run, {
          json,
          interactive: terminal.interactive,
          signal: terminal.signal,
          ...(flags.input !== undefined ? { input: flags.input } : {}),
        });
      } finally {
        run.close();
        await settings.mcp?.close();
      }
    } catch (error) {
      reportError(error, json);
    }
  });
}
