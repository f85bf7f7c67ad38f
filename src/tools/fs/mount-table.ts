import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { SpineError } from '../../core/spine-error.js';
import { isBelowAny } from './hidden-entries.js';
import { type MountName, parseMountPath } from './parse-mount-path.js';

/** True when `relative` (below the mount root, `/`-separated) is a hidden path or inside one. */
export function isHiddenPath(mount: Mount, relative: string): boolean {
  return isBelowAny(mount.hidden, relative);
}

/** Mounts by short name (`project`, `pkg`, `state`: the defaults apply) or by mount name with access. */
export type FsMountsOption =
  | { project?: string; pkg?: string; state?: string }
  | Partial<Record<MountName, { root: string; writable?: boolean }>>;

/** One mount as resolved at start: the real root and its identity, checked again at every use. */
export interface Mount {
  name: MountName;
  root: string;
  rootReal: string;
  writable: boolean;
  dev: number;
  ino: number;
  /** Paths below the root (`.spine`, `a/b`) that no tool may name, list or search. */
  hidden: readonly string[];
}

export type MountTable = Map<MountName, Mount>;

/**
 * Resolves the mounts. `@pkg` is always read-only; `@project` is read-only when `readOnly` is set;
 * `@state` is created when missing. A missing `@project` or `@pkg` root is a configuration error.
 */
export function createMountTable(
  option: FsMountsOption,
  readOnly = false,
  hide: readonly string[] = [],
): MountTable {
  const table: MountTable = new Map();
  for (const [name, spec] of normalizeMounts(option)) {
    if (name === '@state') mkdirSync(spec.root, { recursive: true });
    let rootReal: string;
    try {
      rootReal = realpathSync(spec.root);
    } catch (error) {
      throw new SpineError({
        code: 'CONFIG_INVALID',
        message: `mount ${name}: ${spec.root} does not exist`,
        cause: error,
      });
    }
    const stats = statSync(rootReal);
    if (!stats.isDirectory()) {
      throw new SpineError({
        code: 'CONFIG_INVALID',
        message: `mount ${name}: ${spec.root} is not a folder`,
      });
    }
    const writable = name !== '@pkg' && spec.writable && !(readOnly && name === '@project');
    const hidden: string[] = [];
    table.set(name, { name, root: spec.root, rootReal, writable, dev: stats.dev, ino: stats.ino, hidden });
  }
  if (table.size === 0)
    throw new SpineError({ code: 'CONFIG_INVALID', message: 'fsTools needs at least one mount' });
  for (const path of hide) {
    const parsed = parseMountPath(path, [...table.keys()]);
    const mount = table.get(parsed.mount);
    if (mount) (mount.hidden as string[]).push(parsed.segments.join('/'));
  }
  return table;
}

function normalizeMounts(option: FsMountsOption): [MountName, { root: string; writable: boolean }][] {
  const result: [MountName, { root: string; writable: boolean }][] = [];
  const short = option as { project?: string; pkg?: string; state?: string };
  const long = option as Partial<Record<MountName, { root: string; writable?: boolean }>>;
  const pairs: [MountName, 'project' | 'pkg' | 'state'][] = [
    ['@project', 'project'],
    ['@pkg', 'pkg'],
    ['@state', 'state'],
  ];
  for (const [name, key] of pairs) {
    const byName = long[name];
    if (byName !== undefined)
      result.push([name, { root: byName.root, writable: byName.writable ?? name !== '@pkg' }]);
    else if (typeof short[key] === 'string')
      result.push([name, { root: short[key], writable: name !== '@pkg' }]);
  }
  return result;
}
