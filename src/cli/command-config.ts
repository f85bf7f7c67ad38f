import { dirname, resolve } from 'node:path';
import { findConfigFile, loadConfig } from '../llm/config/load-config.js';
import type { SpineConfig } from '../llm/config/spine-config.js';

/** The spine.yaml a command reads its tool settings from (skills, MCP servers), with the folder it sits in. */
export async function loadCommandConfig(
  flags: { config?: string },
  cwd: string,
): Promise<{ config: SpineConfig; folder: string } | undefined> {
  const file = flags.config !== undefined ? resolve(cwd, flags.config) : await findConfigFile(cwd);
  if (file === undefined) return undefined;
  const path = resolve(cwd, file);
  return { config: await loadConfig(path), folder: dirname(path) };
}
