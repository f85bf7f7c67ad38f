import type { Command } from 'commander';
import type { PackageProblem } from '../../workflow/package/package-types.js';
import { reportError } from '../report-error.js';

export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('check a workflow package (folder, .bmad or .zip) and list every problem at once')
    .argument('<package>', 'the package folder or archive')
    .option('--json', 'print the report as JSON: { source, sha256, manifest, workflows, problems }')
    .action(async (source: string, flags: { json?: boolean }) => {
      try {
        // Loaded when the command runs: `spine --help` lists every command without loading them.
        const { validatePackage } = await import('../../workflow/package/open-package.js');
        const report = await validatePackage(source);
        const errors = report.problems.filter((problem) => problem.severity === 'error');
        if (flags.json) process.stdout.write(`${JSON.stringify(report)}\n`);
        else {
          for (const problem of report.problems) process.stdout.write(`${describe(problem)}\n`);
          const name = report.manifest ? `${report.manifest.name} ${report.manifest.version}` : source;
          const workflows = report.workflows
            .map((workflow) => `${workflow.id} (${workflow.nodes} nodes, ${workflow.edges} edges)`)
            .join(', ');
          process.stdout.write(
            errors.length === 0
              ? `ok: ${name}: ${workflows}\n`
              : `${errors.length} problem${errors.length === 1 ? '' : 's'} in ${name}\n`,
          );
        }
        if (errors.length > 0) process.exitCode = 1;
      } catch (error) {
        reportError(error, Boolean(flags.json));
      }
    });
}

/** `steps/a.md:3 PKG_INVALID_FRONTMATTER …` or `workflow.graph.json#/edges/2/to PKG_EDGE_UNKNOWN_NODE …`. */
function describe(problem: PackageProblem): string {
  const where =
    problem.line !== undefined
      ? `${problem.file}:${problem.line}`
      : problem.pointer !== undefined
        ? `${problem.file}#${problem.pointer}`
        : problem.file;
  const kind = problem.severity === 'warning' ? 'warning ' : '';
  return `${where}  ${kind}${problem.code}  ${problem.message}`;
}
