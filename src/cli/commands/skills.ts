import type { Command } from 'commander';
import { formatTable } from '../format-table.js';
import { reportError } from '../report-error.js';
import { collect, resolveSkillRoots } from '../skill-roots.js';

export function registerSkillsCommand(program: Command): void {
  const skills = program
    .command('skills')
    .description('the skills a run can use (--skills DIR, skills: in spine.yaml)');
  skills
    .command('list')
    .description('list the skills found, and every skill left out with its file and reason')
    .option('--skills <dir>', 'a skills folder (<dir>/<name>/SKILL.md); repeatable', collect)
    .option('--config <file>', 'the config whose skills: folders to read (default: ./spine.yaml)')
    .option('--json', 'print { roots, skills, problems, sandbox } as JSON')
    .action(async (flags: { skills?: string[]; config?: string; json?: boolean }) => {
      try {
        // Loaded when the command runs: `spine --help` lists every command without loading them.
        const { discoverSkills } = await import('../../tools/skills/discover-skills.js');
        const { sandboxVerdict } = await import('../../tools/skills/script-sandbox.js');
        const roots = await resolveSkillRoots(flags);
        const catalog = await discoverSkills(roots);
        const sandbox = sandboxVerdict();
        if (flags.json) {
          const listed = catalog.skills.map(({ name, description, folder }) => ({
            name,
            description,
            folder,
          }));
          process.stdout.write(
            `${JSON.stringify({ roots, skills: listed, problems: catalog.problems, sandbox })}\n`,
          );
        } else {
          if (roots.length === 0)
            process.stdout.write('no skills folders: give --skills DIR or skills: in spine.yaml\n');
          if (catalog.skills.length > 0)
            process.stdout.write(
              `${formatTable(
                ['SKILL', 'DESCRIPTION', 'FOLDER'],
                catalog.skills.map((skill) => [skill.name, clip(skill.description), skill.folder]),
              )}\n`,
            );
          for (const problem of catalog.problems)
            process.stdout.write(`problem: ${problem.file}: ${problem.reason}\n`);
          process.stdout.write(
            sandbox.kind === 'bubblewrap'
              ? 'scripts run inside bubblewrap\n'
              : `scripts run WITHOUT a sandbox: ${sandbox.reason}\n`,
          );
        }
        if (catalog.problems.length > 0) process.exitCode = 1;
      } catch (error) {
        reportError(error, Boolean(flags.json));
      }
    });
}

function clip(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
