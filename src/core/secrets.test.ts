import { expect, test } from 'vitest';
import { redactSecrets, redactSecretsDeep, registerSecret } from './secrets.js';
import { SpineError } from './spine-error.js';

test('registered secrets are redacted in their plain, URL- and JSON-escaped forms and after Bearer', () => {
  registerSecret('Bearer tok"en/+42abc');
  expect(redactSecrets('a tok"en/+42abc b')).toBe('a [REDACTED] b');
  expect(redactSecrets(`?k=${encodeURIComponent('tok"en/+42abc')}`)).toBe('?k=[REDACTED]');
  expect(redactSecrets(JSON.stringify({ m: 'tok"en/+42abc' }))).toBe('{"m":"[REDACTED]"}');
  expect(redactSecrets('nothing here')).toBe('nothing here');
});

test('values too short to be keys are not registered, so ordinary words survive', () => {
  registerSecret('abc');
  expect(redactSecrets('abc abc')).toBe('abc abc');
});

test('SpineError redacts its message and details when made', () => {
  registerSecret('sk-unit-1234567');
  const error = new SpineError({
    code: 'LLM_AUTH_FAILED',
    message: 'bad key sk-unit-1234567',
    details: { body: { error: 'sk-unit-1234567' }, list: ['x sk-unit-1234567'] },
  });
  expect(error.message).toBe('bad key [REDACTED]');
  expect(error.details).toEqual({ body: { error: '[REDACTED]' }, list: ['x [REDACTED]'] });
  expect(redactSecretsDeep({ n: 1 })).toEqual({ n: 1 });
});
