import { lazyModule } from '../../../core/lazy-module.js';
import { findJsonValueEnd } from './find-json-value-end.js';

const jsonRepair = lazyModule<typeof import('jsonrepair')>('jsonrepair');

export type LenientJsonFix = 'code-fence' | 'python-literals' | 'json-repair' | 'truncated-json';

export type LenientJsonResult =
  | { ok: true; value: unknown; fixes: LenientJsonFix[] }
  | { ok: false; error: string };

/**
 * Parses JSON the way small local models write it (RUNNER-QUIRKS §30-31): plain `JSON.parse` first, then
 * without a surrounding code fence, then with Python `True/False/None` replaced, then through `jsonrepair`
 * (single quotes, unquoted keys, trailing commas, missing closing brackets). Text cut off before its
 * closing brackets is named `truncated-json`, so a caller can refuse to run a call that was cut short.
 * Never throws.
 */
export function parseLenientJson(text: string): LenientJsonResult {
  const strict = tryParse(text);
  if (strict.ok) return { ok: true, value: strict.value, fixes: [] };
  const fixes: LenientJsonFix[] = [];
  let current = text;
  const unfenced = stripCodeFence(current);
  if (unfenced !== undefined) {
    fixes.push('code-fence');
    current = unfenced;
    const parsed = tryParse(current);
    if (parsed.ok) return { ok: true, value: parsed.value, fixes };
  }
  const literal = replacePythonLiterals(current);
  if (literal !== current) {
    fixes.push('python-literals');
    current = literal;
    const parsed = tryParse(current);
    if (parsed.ok) return { ok: true, value: parsed.value, fixes };
  }
  // A whole value followed only by a stray fence (the model closed a fence it never opened): the value alone.
  const trimmed = current.trim();
  const valueEnd = /^[[{]/.test(trimmed) ? findJsonValueEnd(trimmed, 0) : -1;
  if (valueEnd !== -1 && /^\s*(?:```\s*)+$/.test(trimmed.slice(valueEnd))) {
    const parsed = tryParse(trimmed.slice(0, valueEnd));
    if (parsed.ok) return { ok: true, value: parsed.value, fixes: [...fixes, 'code-fence'] };
  }
  try {
    const parsed = tryParse(jsonRepair().jsonrepair(current));
    if (parsed.ok) return { ok: true, value: parsed.value, fixes: [...fixes, classifyRepair(current)] };
    return { ok: false, error: strict.error };
  } catch (error) {
    return { ok: false, error: `${strict.error}; repair failed: ${errorMessage(error)}` };
  }
}

function classifyRepair(text: string): LenientJsonFix {
  const trimmed = text.trimStart();
  return /^[[{]/.test(trimmed) && findJsonValueEnd(trimmed, 0) === -1 ? 'truncated-json' : 'json-repair';
}

/** The body of a fenced block (closed or not) that is the whole text, or undefined when there is none. */
export function stripCodeFence(text: string): string | undefined {
  const match = /^\s*```[\w.+-]*[ \t]*\n?([\s\S]*?)\s*(?:```\s*)?$/.exec(text);
  return match ? match[1] : undefined;
}

const pythonLiterals = new Map([
  ['True', 'true'],
  ['False', 'false'],
  ['None', 'null'],
  // Models that mix languages write SQL's and C#'s spellings too: a string "Null" is never what they meant.
  ['Null', 'null'],
  ['NULL', 'null'],
]);

/** Replaces bare `True`, `False`, `None` outside quoted strings (either quote kind) with JSON literals. */
export function replacePythonLiterals(text: string): string {
  let output = '';
  let quote: string | undefined;
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (quote !== undefined) {
      output += character;
      if (character === '\\' && index + 1 < text.length) output += text[++index];
      else if (character === quote) quote = undefined;
      index++;
      continue;
    }
    if (character === '"' || character === "'") quote = character;
    if (isIdentifierStart(character) && !isIdentifierPart(text[index - 1])) {
      let end = index + 1;
      while (isIdentifierPart(text[end])) end++;
      const word = text.slice(index, end);
      output += pythonLiterals.get(word) ?? word;
      index = end;
      continue;
    }
    output += character;
    index++;
  }
  return output;
}

function isIdentifierStart(character: string | undefined): boolean {
  return character !== undefined && /[A-Za-z_$]/.test(character);
}

function isIdentifierPart(character: string | undefined): boolean {
  return character !== undefined && /[\w$]/.test(character);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
