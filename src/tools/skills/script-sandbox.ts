import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync } from 'node:fs';

/** How a skill's script is isolated on this machine. */
export interface SandboxVerdict {
  kind: 'bubblewrap' | 'none';
  /** Why there is no sandbox, in a sentence for `spine doctor` and the first run. */
  reason?: string;
}

let verdict: SandboxVerdict | undefined;

/**
 * Whether bubblewrap is installed and works here (it needs user namespaces, which some containers forbid):
 * found on PATH and a trial `true` inside the same sandbox the scripts get. Checked once per process.
 */
export function sandboxVerdict(): SandboxVerdict {
  if (verdict !== undefined) return verdict;
  const bwrap = findBwrap();
  if (bwrap === undefined) {
    verdict = {
      kind: 'none',
      reason: 'bubblewrap (bwrap) is not installed; on Debian: apt-get install bubblewrap',
    };
    return verdict;
  }
  const trial = spawnSync(
    bwrap,
    [...bubblewrapArgs({ skillFolder: '/usr', scratch: '/tmp', network: false }), '/bin/true'],
    {
      timeout: 5000,
      encoding: 'utf8',
    },
  );
  verdict =
    trial.status === 0
      ? { kind: 'bubblewrap' }
      : {
          kind: 'none',
          reason: `bubblewrap does not work here: ${(trial.stderr || trial.error?.message || 'exit ' + trial.status).trim()}`,
        };
  return verdict;
}

export function findBwrap(): string | undefined {
  return ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].find((path) => existsSync(path));
}

/** The interpreter: the system's python3 first (a version manager's shim needs the caller's environment). */
export function findPython(): string {
  return ['/usr/bin/python3', '/usr/local/bin/python3'].find((path) => existsSync(path)) ?? 'python3';
}

/**
 * The bubblewrap sandbox of one script: the system read-only (`/usr`, and `/bin`, `/lib`… as the host has
 * them), the skill folder read-only at `/skill`, the scratch folder writable at `/scratch` (the working folder),
 * a private `/tmp`, `/proc` and `/dev`; every namespace unshared — no other process visible, no network unless
 * the skill allows it — and the script dies with Spine.
 */
export function bubblewrapArgs(options: {
  skillFolder: string;
  scratch: string;
  network: boolean;
}): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const top of ['/bin', '/lib', '/lib64', '/sbin']) {
    const stats = lstatOrUndefined(top);
    if (stats?.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else if (stats?.isDirectory()) args.push('--ro-bind', top, top);
  }
  args.push(
    '--ro-bind-try',
    '/etc/alternatives',
    '/etc/alternatives',
    '--ro-bind-try',
    '/etc/ld.so.cache',
    '/etc/ld.so.cache',
    '--ro-bind-try',
    '/etc/localtime',
    '/etc/localtime',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    options.skillFolder,
    '/skill',
    '--bind',
    options.scratch,
    '/scratch',
    '--chdir',
    '/scratch',
    '--unshare-all',
  );
  if (options.network)
    args.push(
      '--share-net',
      '--ro-bind-try',
      '/etc/resolv.conf',
      '/etc/resolv.conf',
      '--ro-bind-try',
      '/etc/ssl',
      '/etc/ssl',
    );
  args.push('--die-with-parent', '--new-session', '--clearenv');
  return args;
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
