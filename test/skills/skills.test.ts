import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../src/core/types.js';
import { discoverSkills } from '../../src/tools/skills/discover-skills.js';
import { sandboxVerdict } from '../../src/tools/skills/script-sandbox.js';
import { skillTools } from '../../src/tools/skills/skill-tools.js';
import { createToolHost } from '../../src/tools/tool-host.js';
import { processesMatching } from '../support/processes.js';
import { makeSkillsFolder } from './skills-kit.js';

async function hostFor(root: string, options: Parameters<typeof skillTools>[1] = {}) {
  const catalog = await discoverSkills([root]);
  const host = createToolHost([skillTools(catalog.skills, options)]);
  let calls = 0;
  return (name: string, args: Record<string, unknown>): Promise<ToolResult & Record<string, unknown>> => {
    calls += 1;
    return host.execute(
      { id: `c${calls}`, name, arguments: args },
      { runId: 'r', projectRoot: root },
    ) as Promise<ToolResult & Record<string, unknown>>;
  };
}

const bubblewrap = sandboxVerdict().kind === 'bubblewrap';

describe('skills discovery', () => {
  it('finds skills and reports each bad one with its file and reason, keeping the rest', async () => {
    const first = makeSkillsFolder({
      nodesc: '---\nname: nodesc\n---\nbody\n',
      broken: '---\nname: [unclosed\n---\n',
      bare: 'no frontmatter at all\n',
    });
    const second = makeSkillsFolder();
    const catalog = await discoverSkills([first, second]);
    expect(catalog.skills.map((skill) => skill.name)).toEqual(['calculator']);
    expect(catalog.skills[0]).toMatchObject({ description: 'Basic arithmetic with Python', network: false });
    const reasons = catalog.problems.map((problem) => [
      problem.file.replace(/^.*spine-skills-\w+\//, ''),
      problem.reason,
    ]);
    expect(reasons).toEqual([
      ['bare/SKILL.md', 'no YAML frontmatter (SKILL.md must start with ---)'],
      ['broken/SKILL.md', expect.stringMatching(/^the frontmatter does not parse/)],
      ['nodesc/SKILL.md', 'no description: the model picks skills by it'],
      [
        'calculator/SKILL.md',
        expect.stringMatching(/^the name "calculator" is already taken by .*calculator\/SKILL.md$/),
      ],
    ]);
  });
});

describe('the skill tools', () => {
  it('list_skills, get_skill and run_python_script give the spec’s result shapes', async () => {
    const call = await hostFor(makeSkillsFolder());
    expect(await call('list_skills', {})).toEqual({
      ok: true,
      skills: [{ name: 'calculator', description: 'Basic arithmetic with Python' }],
    });
    expect(await call('get_skill', { skill_name: 'calculator' })).toEqual({
      ok: true,
      skill_name: 'calculator',
      documentation: expect.stringMatching(/^# Calculator\n/),
    });
    const run = await call('run_python_script', {
      skill_name: 'calculator',
      script: 'result = 25 * 4\nprint(result)',
    });
    expect(run).toMatchObject({
      ok: true,
      skill_name: 'calculator',
      stdout: '100\n',
      stderr: '',
      returncode: 0,
      timed_out: false,
      stdout_truncated: false,
    });
    // The skill's files are readable from the script.
    const table = await call('run_python_script', {
      skill_name: 'calculator',
      script: 'import os\nprint(open(os.path.join(os.environ["SKILL_DIR"], "table.txt")).read().strip())',
    });
    expect(table).toMatchObject({ stdout: 'pi=3.14159\n', returncode: 0 });
    const failing = await call('run_python_script', {
      skill_name: 'calculator',
      script: 'raise SystemExit(3)',
    });
    expect(failing).toMatchObject({ ok: true, returncode: 3 });
  });

  it('an unknown skill is the tool error SKILL_NOT_FOUND, "Skill \'x\' not found"', async () => {
    const call = await hostFor(makeSkillsFolder());
    for (const name of ['get_skill', 'run_python_script'])
      expect(await call(name, { skill_name: 'nonexistent', script: 'print(1)' })).toEqual({
        ok: false,
        error: {
          code: 'SKILL_NOT_FOUND',
          message: "Skill 'nonexistent' not found",
          details: { skill_name: 'nonexistent' },
        },
      });
  });
});

// Hostile scripts: with the limits alone (as where bubblewrap is missing), and inside bubblewrap where it works.
const modes = bubblewrap ? [false, true] : [false];
describe.each(modes)('hostile scripts (sandbox: %s)', (sandbox) => {
  const options = { sandbox, limits: { timeoutMs: 2_000, killGraceMs: 500 } };

  it('sees none of the caller’s keys or tokens in its environment', async () => {
    process.env.OPENAI_API_KEY = 'sk-test-secret-value';
    process.env.SPINE_API_KEY = 'spine-secret-value';
    try {
      const call = await hostFor(makeSkillsFolder(), options);
      const result = await call('run_python_script', {
        skill_name: 'calculator',
        script: 'import os, json\nprint(json.dumps(dict(os.environ)))',
      });
      const environment = JSON.parse(String(result.stdout));
      expect(Object.keys(environment).sort()).toEqual(
        expect.arrayContaining(['HOME', 'LANG', 'PATH', 'SKILL_DIR', 'SKILL_NAME', 'TMPDIR']),
      );
      expect(JSON.stringify(environment)).not.toMatch(/secret-value|OPENAI_API_KEY|SPINE_API_KEY/);
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.SPINE_API_KEY;
    }
  });

  // The grandchild becomes `sleep 3599.<nonce>`: a command line this test alone has, found in /proc.
  const sleeper = () => `3599.${process.pid}${Math.floor(Math.random() * 1e6)}`;

  it('a grandchild that sleeps forever is killed with the group at the timeout; nothing is left', async () => {
    const call = await hostFor(makeSkillsFolder(), options);
    const nonce = sleeper();
    const script = [
      'import os, time',
      'if os.fork() == 0:',
      `    os.execv("/bin/sleep", ["sleep", "${nonce}"])`,
      'time.sleep(3600)',
    ].join('\n');
    const result = await call('run_python_script', { skill_name: 'calculator', script });
    expect(result).toMatchObject({ ok: true, timed_out: true });
    expect(processesMatching(nonce)).toEqual([]);
  });

  it('a grandchild left behind by a script that ends is killed with it', async () => {
    const call = await hostFor(makeSkillsFolder(), options);
    const nonce = sleeper();
    const script = [
      'import os, time',
      'if os.fork() == 0:',
      `    os.execv("/bin/sleep", ["sleep", "${nonce}"])`,
      'time.sleep(0.3)',
      'print("parent done")',
    ].join('\n');
    const result = await call('run_python_script', { skill_name: 'calculator', script });
    expect(result).toMatchObject({ stdout: 'parent done\n', timed_out: false });
    expect(processesMatching(nonce)).toEqual([]);
  });

  it('a flood of output is capped, with the truncated flag', async () => {
    const call = await hostFor(makeSkillsFolder(), options);
    const result = await call('run_python_script', {
      skill_name: 'calculator',
      script:
        'import sys\nfor _ in range(2000):\n    sys.stdout.write("x" * 1000)\nsys.stderr.write("e" * 100000)',
    });
    expect(result).toMatchObject({ ok: true, stdout_truncated: true, stderr_truncated: true, returncode: 0 });
    expect(String(result.stdout)).toHaveLength(64 * 1024);
    expect(String(result.stderr)).toHaveLength(64 * 1024);
  });
});

describe.runIf(bubblewrap)('inside bubblewrap', () => {
  it('cannot write outside its scratch folder, nor open a socket', async () => {
    const call = await hostFor(makeSkillsFolder());
    const outside = join(mkdtempSync(join(tmpdir(), 'spine-outside-')), 'escaped.txt');
    const result = await call('run_python_script', {
      skill_name: 'calculator',
      script: [
        'import os, socket',
        `for path in [${JSON.stringify(outside)}, os.path.join(os.environ["SKILL_DIR"], "x.txt"), "/usr/x.txt"]:`,
        '    try:',
        '        open(path, "w").write("x")',
        '        print("wrote", path)',
        '    except OSError as error:',
        '        print("refused", error.errno)',
        'try:',
        '    socket.create_connection(("127.0.0.1", 9), timeout=2)',
        '    print("connected")',
        'except OSError as error:',
        '    print("no network", error.errno)',
        'open("inside.txt", "w").write("ok")',
        'print("scratch ok")',
      ].join('\n'),
    });
    expect(result.sandbox).toBe('bubblewrap');
    expect(String(result.stdout)).not.toContain('wrote');
    expect(String(result.stdout).match(/refused/g)).toHaveLength(3);
    expect(String(result.stdout)).toContain('no network');
    expect(String(result.stdout)).toContain('scratch ok');
    expect(existsSync(outside)).toBe(false);
  });

  it('sees no other process', async () => {
    const call = await hostFor(makeSkillsFolder());
    const result = await call('run_python_script', {
      skill_name: 'calculator',
      script: 'import os\nprint(sorted(int(p) for p in os.listdir("/proc") if p.isdigit()))',
    });
    const pids = JSON.parse(String(result.stdout).trim()) as number[];
    expect(pids.length).toBeLessThanOrEqual(3);
  });

  it('a skill with network: true may use the network', async () => {
    const root = makeSkillsFolder({
      fetcher: '---\nname: fetcher\ndescription: Fetches\nnetwork: true\n---\n',
    });
    const call = await hostFor(root);
    const result = await call('run_python_script', {
      skill_name: 'fetcher',
      script: 'import socket\ns = socket.socket()\ns.bind(("127.0.0.1", 0))\nprint("bound")',
    });
    expect(result).toMatchObject({ stdout: 'bound\n', returncode: 0 });
  });
});
