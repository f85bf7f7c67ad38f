import { resolve } from 'node:path';
import { loadCommandConfig } from './command-config.js';

/**
 * The skills folders of a command: each `--skills DIR` (relative to the current folder), then the config's
 * `skills:` list (relative to the config file). A config is read for them only when there is one.
 */
export async function resolveSkillRoots(
  flags: { skills?: string[]; config?: string },
  cwd: string = process.cwd(),
): Promise<string[]> {
  const roots = (flags.skills ?? []).map((dir) => resolve(cwd, dir));
  const loaded = await loadCommandConfig(flags, cwd);
  for (const dir of loaded?.config.skills ?? []) roots.push(resolve(loaded!.folder, dir));
  return [...new Set(roots)];
}

/** commander's collector for a repeatable option. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
