import { expect, test } from 'vitest';
import { SpineError } from '../../core/spine-error.js';
import { mountNames, parseMountPath } from './parse-mount-path.js';
import { isInside } from './resolve-mount-path.js';

test('clean paths keep their segments; "." and empty segments drop out', () => {
  expect(parseMountPath('@project/./src//a.ts/', mountNames)).toEqual({
    mount: '@project',
    segments: ['src', 'a.ts'],
    display: '@project/src/a.ts',
  });
  expect(parseMountPath('@state', mountNames).display).toBe('@state');
});

test.each([
  ['@project/../x', 'dot-dot'],
  ['/abs', 'absolute-path'],
  ['@pkg', 'unknown-mount'],
  ['@project/\u0007', 'control-character'],
  ['@project/%00', 'percent-encoded'],
])('%j is refused (%s)', (path, reason) => {
  try {
    parseMountPath(path, ['@project', '@state']);
    expect.unreachable();
  } catch (error) {
    expect(SpineError.is(error) && error.code).toBe('E_SANDBOX_VIOLATION');
    expect((error as SpineError).details.reason).toBe(reason);
  }
});

test('isInside does not admit prefix look-alikes', () => {
  expect(isInside('/a/proj', '/a/proj')).toBe(true);
  expect(isInside('/a/proj', '/a/proj/x')).toBe(true);
  expect(isInside('/a/proj', '/a/proj-other')).toBe(false);
  expect(isInside('/a/proj', '/a/pro')).toBe(false);
});
