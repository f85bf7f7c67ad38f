import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Skill } from './discover-skills.js';
import { bubblewrapArgs, findBwrap, findPython, sandboxVerdict } from './script-sandbox.js';

export interface ScriptLimits {
  /** Default 30 s; a skill's `timeout_seconds` wins. */
  timeoutMs: number;
  /** Per stream; what is past it is read and dropped (default 64 KiB). */
  outputBytes: number;
  /** SIGTERM first, then SIGKILL after this (default 2 s). */
  killGraceMs: number;
}

export const defaultScriptLimits: ScriptLimits = {
  timeoutMs: 30_000,
  outputBytes: 64 * 1024,
  killGraceMs: 2_000,
};

/** What `run_python_script` returns (spec 003), with Spine's truncation flags. */
export interface ScriptOutcome {
  skill_name: string;
  stdout: string;
  stderr: string;
  returncode: number | null;
  timed_out: boolean;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  /** `bubblewrap`, or `none` where it is missing (limits still apply). */
  sandbox: 'bubblewrap' | 'none';
}

/**
 * Runs a model-written Python script for a skill: `python3 -I` on a file (never `-c`, never a shell), in a fresh
 * scratch folder that is removed afterwards, stdin empty, an environment built from an allowlist (no key or
 * token of the caller ever reaches it), inside bubblewrap where it works. A timeout or a cancel ends the whole
 * process group (SIGTERM, then SIGKILL), and so does the script's own end: nothing it forked outlives it.
 */
export async function runPythonScript(
  skill: Skill,
  script: string,
  options: { limits?: Partial<ScriptLimits>; signal?: AbortSignal; sandbox?: boolean } = {},
): Promise<ScriptOutcome> {
  const limits = { ...defaultScriptLimits, ...options.limits };
  const timeoutMs = skill.timeoutSeconds !== undefined ? skill.timeoutSeconds * 1000 : limits.timeoutMs;
  const scratch = await mkdtemp(join(tmpdir(), 'spine-skill-'));
  try {
    await writeFile(join(scratch, 'script.py'), script);
    // `sandbox: false` runs with the limits alone, as on a machine without bubblewrap.
    const sandboxed = options.sandbox !== false && sandboxVerdict().kind === 'bubblewrap';
    const environment = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      LANG: process.env.LANG ?? 'C.UTF-8',
      HOME: sandboxed ? '/scratch' : scratch,
      TMPDIR: sandboxed ? '/tmp' : scratch,
      PYTHONIOENCODING: 'utf-8',
      PYTHONDONTWRITEBYTECODE: '1',
      SKILL_NAME: skill.name,
      SKILL_DIR: sandboxed ? '/skill' : skill.folder,
    };
    const command = sandboxed
      ? [
          findBwrap()!,
          ...bubblewrapArgs({ skillFolder: skill.folder, scratch, network: skill.network }),
          ...Object.entries(environment).flatMap(([key, value]) => ['--setenv', key, value]),
          '/usr/bin/python3',
          '-I',
          '/scratch/script.py',
        ]
      : [findPython(), '-I', join(scratch, 'script.py')];
    const outcome = await runProcessGroup(command, {
      cwd: scratch,
      env: environment,
      timeoutMs,
      limits,
      signal: options.signal,
    });
    return { skill_name: skill.name, ...outcome, sandbox: sandboxed ? 'bubblewrap' : 'none' };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

interface GroupOutcome {
  stdout: string;
  stderr: string;
  returncode: number | null;
  timed_out: boolean;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
}

function runProcessGroup(
  command: string[],
  options: {
    cwd: string;
    env: Record<string, string>;
    timeoutMs: number;
    limits: ScriptLimits;
    signal?: AbortSignal;
  },
): Promise<GroupOutcome> {
  return new Promise((resolve, reject) => {
    // Detached: the script leads its own process group, so one signal reaches everything it started.
    const child = spawn(command[0]!, command.slice(1), {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = capped(options.limits.outputBytes);
    const stderr = capped(options.limits.outputBytes);
    child.stdout.on('data', stdout.add);
    child.stderr.on('data', stderr.add);
    let timedOut = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group is gone already.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      graceTimer ??= setTimeout(() => killGroup('SIGKILL'), options.limits.killGraceMs);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // The script is done: what it forked and left running (holding our pipes open) goes now, not at the timeout.
    child.on('exit', () => killGroup('SIGKILL'));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        stdout: stdout.text(),
        stderr: stderr.text(),
        returncode: code ?? (signal !== null ? -1 : null),
        timed_out: timedOut,
        stdout_truncated: stdout.truncated(),
        stderr_truncated: stderr.truncated(),
      });
    });
  });
}

function capped(limit: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = false;
  return {
    add: (chunk: Buffer) => {
      if (kept >= limit) {
        dropped = true;
        return;
      }
      const room = limit - kept;
      if (chunk.length > room) dropped = true;
      const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(piece);
      kept += piece.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    truncated: () => dropped,
  };
}
