import type { Command } from 'commander';
import { addModelOptions, type ModelFlags } from './model-selection.js';
import { collect } from './skill-roots.js';

/** The flags `spine ask` and `spine chat` share: the model, the tools, the run folder and the display. */
export interface RunFlags extends ModelFlags {
  maxTurns?: string;
  maxTokens?: string;
  toolsModule?: string;
  project?: string;
  write?: boolean;
  /** False with `--no-fs`. */
  fs?: boolean;
  runDir?: string;
  showReasoning?: boolean;
  skills?: string[];
  mcp?: string[];
}

export function addRunOptions(command: Command): Command {
  return addModelOptions(
    command
      .option('--max-turns <n>', 'model calls per task before stopping to ask (default 20)')
      .option('--max-tokens <n>', 'output tokens per model call (default: the runner’s own limit)')
      .option('--tools-module <file>', 'a JS module whose default export is an array of tool definitions')
      .option('--skills <dir>', 'a skills folder (<dir>/<name>/SKILL.md); repeatable', collect)
      .option(
        '--mcp <server>',
        'an MCP server to start: NAME=COMMAND [ARGS…] (or NAME=URL); repeatable',
        collect,
      )
      .option('--project <dir>', 'the folder the model sees as @project (default: the current folder)')
      .option('--write', 'let the model write into @project (read-only without it)')
      .option('--no-fs', 'leave the sandboxed fs.* tools out')
      .option('--run-dir <dir>', 'the run folder (default: <project>/.spine/runs/<run id>)')
      .option('--show-reasoning', 'show the model’s reasoning, dimmed'),
  );
}
