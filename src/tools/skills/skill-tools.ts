import { SpineError } from '../../core/spine-error.js';
import type { ToolDefinition } from '../define-tool.js';
import type { Skill } from './discover-skills.js';
import { runPythonScript, type ScriptLimits } from './run-python-script.js';
import { sandboxVerdict } from './script-sandbox.js';

export interface SkillToolsOptions {
  limits?: Partial<ScriptLimits>;
  /** Told once, at the first script run, when there is no sandbox (the CLI writes it to stderr). */
  warn?: (message: string) => void;
  /** False runs scripts with the limits alone even where bubblewrap works (default: bubblewrap when it works). */
  sandbox?: boolean;
}

/**
 * The three tools of the skills spec (003) over a catalog: `list_skills` → `{ skills: [{ name, description }] }`,
 * `get_skill { skill_name }` → `{ skill_name, documentation }`, `run_python_script { skill_name, script }` →
 * `{ skill_name, stdout, stderr, returncode, timed_out }` (plus truncation flags and the sandbox used). An
 * unknown skill is the tool error `SKILL_NOT_FOUND`, "Skill 'x' not found".
 */
export function skillTools(skills: readonly Skill[], options: SkillToolsOptions = {}): ToolDefinition[] {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const find = (name: unknown): Skill => {
    const skill = typeof name === 'string' ? byName.get(name) : undefined;
    if (skill === undefined)
      throw new SpineError({
        code: 'SKILL_NOT_FOUND',
        message: `Skill '${String(name)}' not found`,
        details: { skill_name: name },
      });
    return skill;
  };
  let warned = false;
  const skillName = {
    type: 'string',
    description: `One of: ${skills.map((skill) => skill.name).join(', ') || '(none)'}`,
  };
  return [
    {
      name: 'list_skills',
      description: 'List all available skills, with what each is for.',
      parameters: { type: 'object', properties: {}, required: [] },
      source: 'skill',
      execute: () => ({ ok: true, skills: skills.map(({ name, description }) => ({ name, description })) }),
    },
    {
      name: 'get_skill',
      description: "Read a skill's documentation: how to use it, and the scripts it offers.",
      parameters: { type: 'object', properties: { skill_name: skillName }, required: ['skill_name'] },
      source: 'skill',
      execute: (args) => {
        const skill = find(args.skill_name);
        return { ok: true, skill_name: skill.name, documentation: skill.documentation };
      },
    },
    {
      name: 'run_python_script',
      description:
        "Run a Python script for a skill and get its output. The script runs in an empty working folder; the skill's files are readable under the folder named by the SKILL_DIR environment variable. Print the result.",
      parameters: {
        type: 'object',
        properties: {
          skill_name: skillName,
          script: { type: 'string', description: 'Python 3 source code' },
        },
        required: ['skill_name', 'script'],
      },
      source: 'skill',
      // The script's own time limit ends it; the host's default timeout must not cut it first.
      timeoutMs: 0,
      execute: async (args, context) => {
        const skill = find(args.skill_name);
        if (typeof args.script !== 'string')
          throw new SpineError({
            code: 'E_SCHEMA_VALIDATION',
            message: 'script must be a string of Python code',
          });
        const verdict = options.sandbox === false ? { kind: 'none', reason: 'turned off' } : sandboxVerdict();
        if (verdict.kind === 'none' && !warned) {
          warned = true;
          options.warn?.(
            `skill scripts run without a sandbox: ${verdict.reason} (time, output and environment limits still apply)`,
          );
        }
        const outcome = await runPythonScript(skill, args.script, {
          limits: options.limits ?? {},
          signal: context.signal,
          ...(options.sandbox === false ? { sandbox: false } : {}),
        });
        return { ok: true, ...outcome };
      },
    },
  ];
}
