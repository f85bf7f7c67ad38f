import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { lazyModule } from '../../core/lazy-module.js';

const yaml = lazyModule<typeof import('yaml')>('yaml');

/** One skill: a folder `<root>/<name>/` with a `SKILL.md` and whatever scripts it keeps beside it. */
export interface Skill {
  name: string;
  description: string;
  /** The skill's folder, absolute. */
  folder: string;
  /** The body of SKILL.md: what `get_skill` returns. */
  documentation: string;
  /** `timeout_seconds` in the frontmatter: this skill's script time limit. */
  timeoutSeconds?: number;
  /** `network: true` in the frontmatter: its scripts may use the network (inside the sandbox too). */
  network: boolean;
}

/** Why a skill folder was left out, with the file to fix. */
export interface SkillProblem {
  file: string;
  reason: string;
}

export interface SkillCatalog {
  skills: Skill[];
  problems: SkillProblem[];
}

/**
 * The skills under each root (the Agent Skills layout: `<root>/<name>/SKILL.md`, YAML frontmatter `name` and
 * `description`, the body its documentation). A folder without SKILL.md is not a skill; one whose frontmatter
 * does not read, lacks a description, or whose name is already taken by an earlier root is a problem, reported
 * with its file and left out — one bad skill never hides the others.
 */
export async function discoverSkills(roots: readonly string[]): Promise<SkillCatalog> {
  const catalog: SkillCatalog = { skills: [], problems: [] };
  const seen = new Map<string, string>();
  for (const root of roots.map((path) => resolve(path))) {
    let names: string[];
    try {
      names = (await readdir(root, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => entry.name)
        .sort();
    } catch (error) {
      catalog.problems.push({
        file: root,
        reason: `the skills folder cannot be read: ${(error as Error).message}`,
      });
      continue;
    }
    for (const name of names) {
      const file = join(root, name, 'SKILL.md');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        continue;
      }
      const read = readSkill(text, name, join(root, name));
      if ('reason' in read) {
        catalog.problems.push({ file, reason: read.reason });
        continue;
      }
      const earlier = seen.get(read.name);
      if (earlier !== undefined) {
        catalog.problems.push({ file, reason: `the name "${read.name}" is already taken by ${earlier}` });
        continue;
      }
      seen.set(read.name, file);
      catalog.skills.push(read);
    }
  }
  return catalog;
}

function readSkill(text: string, folderName: string, folder: string): Skill | { reason: string } {
  const found = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (found === null) return { reason: 'no YAML frontmatter (SKILL.md must start with ---)' };
  let frontmatter: unknown;
  try {
    frontmatter = yaml().parse(found[1] ?? '');
  } catch (error) {
    return { reason: `the frontmatter does not parse: ${(error as Error).message.split('\n')[0]}` };
  }
  if (typeof frontmatter !== 'object' || frontmatter === null)
    return { reason: 'the frontmatter is not a mapping' };
  const fields = frontmatter as Record<string, unknown>;
  const name = typeof fields.name === 'string' && fields.name.trim() !== '' ? fields.name.trim() : folderName;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
    return { reason: `the name "${name}" is not usable (letters, digits, _ and - only)` };
  if (typeof fields.description !== 'string' || fields.description.trim() === '')
    return { reason: 'no description: the model picks skills by it' };
  const skill: Skill = {
    name,
    description: fields.description.trim(),
    folder,
    documentation: text.slice(found[0].length).trim(),
    network: fields.network === true,
  };
  if (fields.timeout_seconds !== undefined) {
    if (typeof fields.timeout_seconds !== 'number' || !(fields.timeout_seconds > 0))
      return { reason: 'timeout_seconds must be a positive number' };
    skill.timeoutSeconds = fields.timeout_seconds;
  }
  return skill;
}
