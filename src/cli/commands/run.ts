import type { Command } from 'commander';
import { reportError } from '../report-error.js';
import { addRunOptions, type RunFlags } from '../run-options.js';

interface RunCommandFlags extends RunFlags {
  workflow?: string;
  agent?: string;
  autopilot?: boolean;
  json?: boolean;
}

export function registerRunCommand(program: Command): void {
  addRunOptions(
    program
      .command('run')
      .description(
        'start a workflow run of a package (a folder, .bmad or .zip) and drive it to its stop point',
      )
      .argument('<package>', 'the workflow package: a folder, or a .bmad / .zip file')
      .option('--workflow <id>', 'the workflow to run, in a package with several')
      .option('--agent <id>', 'the agent the run starts with (default: the entry node’s, else the first)')
      .option('--autopilot', 'tell the model to keep going until it needs the user or the workflow ends')
      .option(
        '--json',
        'never prompt; print {runId, phase, currentNodeId, assistantText, state} at the stop',
      ),
  ).action(async (source: string, flags: RunCommandFlags) => {
    const json = Boolean(flags.json);
    try {
      // Loaded when the command runs: `spine --help` lists every command without loading them.
      const { createRun } = await import('../../workflow/run/create-run.js');
      const { openRunPackage } = await import('../../workflow/run/open-run-package.js');
      const { driveWorkflowRun } = await import('../drive-workflow-run.js');
      const { readRunSettings } = await import('../run-settings.js');
      const { openWorkflowTerminal } = await import('../workflow-terminal.js');
      const settings = await readRunSettings(flags);
      const terminal = await openWorkflowTerminal(flags, settings, json);
      const pkg = await openRunPackage(source, flags.workflow);
      const run = await createRun(pkg, {
        ...terminal.runOptions,
        toolPolicy: terminal.toolPolicy,
        project: settings.project,
        write: settings.write,
        autopilot: Boolean(flags.autopilot),
        ...(flags.agent !== undefined ? { agentId: flags.agent } : {}),
      });
      process.stderr.write(`run ${run.runId}: ${pkg.workflow.id} (${run.runDir})\n`);
      settings.mcp?.setStderrFolder(run.runDir);
      try {
        await driveWorkflowRun(run, { json, interactive: terminal.interactive, signal: terminal.signal });
      } finally {
        run.close();
        await settings.mcp?.close();
      }
    } catch (error) {
      reportError(error, json);
    }
  });
}
