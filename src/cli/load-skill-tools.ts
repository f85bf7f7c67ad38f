import type { ToolDefinition } from '../tools/define-tool.js';
import { discoverSkills } from '../tools/skills/discover-skills.js';
import { skillTools } from '../tools/skills/skill-tools.js';
import { resolveSkillRoots } from './skill-roots.js';

/**
 * The skill tools of a run when it has skills folders (none otherwise). Skills with problems are left out and
 * named on stderr; a missing sandbox is said once, at the first script.
 */
export async function loadSkillTools(
  flags: { skills?: string[]; config?: string },
  cwd: string = process.cwd(),
): Promise<ToolDefinition[]> {
  const roots = await resolveSkillRoots(flags, cwd);
  if (roots.length === 0) return [];
  const catalog = await discoverSkills(roots);
  for (const problem of catalog.problems)
    process.stderr.write(`skill left out: ${problem.file}: ${problem.reason}\n`);
  return skillTools(catalog.skills, { warn: (message) => process.stderr.write(`warning: ${message}\n`) });
}
