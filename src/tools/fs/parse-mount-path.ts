import { sandboxViolation } from './fs-failure.js';

export type MountName = '@project' | '@pkg' | '@state';
export const mountNames: readonly MountName[] = ['@project', '@pkg', '@state'];

/** A model's path, checked as a string: a mount and clean segments (no `..`, no empty, no `.`). */
export interface MountPath {
  mount: MountName;
  segments: string[];
  /** The canonical form, `@project/a/b` (the mount alone for its root). */
  display: string;
}

const maxPathLength = 4096;

/**
 * Parses a path as the model sent it. Refuses, before any file system access, everything that is not a plain
 * `@mount/relative/path`: NUL bytes, control characters, backslashes, percent-encoded dots and separators
 * (nothing here decodes them, but a model that sends them is trying something), absolute paths, `..`.
 */
export function parseMountPath(raw: unknown, available: readonly MountName[]): MountPath {
  if (typeof raw !== 'string')
    throw sandboxViolation(String(raw), 'not-a-string', 'the path must be a string');
  if (raw.length === 0) throw sandboxViolation(raw, 'empty-path', 'the path is empty');
  if (raw.length > maxPathLength) {
    throw sandboxViolation(raw.slice(0, 100), 'path-too-long', `the path is longer than ${maxPathLength}`);
  }
  if (raw.includes('\0')) throw sandboxViolation(raw, 'nul-byte', 'the path contains a NUL byte');
  if (/[\u0001-\u001f\u007f]/.test(raw)) {
    throw sandboxViolation(raw, 'control-character', 'the path contains a control character');
  }
  if (raw.includes('\\')) throw sandboxViolation(raw, 'backslash', 'use forward slashes in paths');
  if (/%(2e|2f|5c|00)/i.test(raw)) {
    throw sandboxViolation(raw, 'percent-encoded', 'the path contains a percent-encoded dot or separator');
  }
  if (raw.startsWith('/') || /^[a-z]:/i.test(raw) || raw.startsWith('~')) {
    throw sandboxViolation(raw, 'absolute-path', mountHint('absolute paths are not allowed', available));
  }
  const slash = raw.indexOf('/');
  const head = slash === -1 ? raw : raw.slice(0, slash);
  if (!head.startsWith('@')) throw sandboxViolation(raw, 'no-mount', mountHint('no mount', available));
  const mount = available.find((name) => name === head);
  if (mount === undefined) {
    throw sandboxViolation(raw, 'unknown-mount', mountHint(`unknown mount ${head}`, available), {
      mounts: [...available],
    });
  }
  const segments: string[] = [];
  for (const segment of slash === -1 ? [] : raw.slice(slash + 1).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw sandboxViolation(raw, 'dot-dot', '".." is not allowed in paths');
    segments.push(segment);
  }
  return { mount, segments, display: [mount, ...segments].join('/') };
}

function mountHint(message: string, available: readonly MountName[]): string {
  return `${message}: paths start with ${available.map((name) => `${name}/`).join(', ')}`;
}
