import type { Document, LineCounter } from 'yaml';
import { lazyModule } from '../../core/lazy-module.js';
import type { SpineError } from '../../core/spine-error.js';
import { checkConfigNode } from './check-config-node.js';
import { type ConfigProblem, createConfigError } from './config-error.js';
import { configSchema } from './config-schema.js';
import type { SpineConfig } from './spine-config.js';
import { toSpineConfig } from './to-spine-config.js';

/**
 * A config is read from the working folder, so it is untrusted input: one far larger than any real config
 * (they are a few kilobytes) is refused before it is parsed.
 */
export const maxConfigChars = 1024 * 1024;

const yaml = lazyModule<typeof import('yaml')>('yaml');

/** The error for a config far larger than any real one. */
export function configTooLarge(fileName: string, size: string): SpineError {
  return createConfigError(fileName, [
    {
      line: 1,
      path: '',
      message: `the file is ${size}, over the limit of ${maxConfigChars} for a config (is it the right file?)`,
    },
  ]);
}

/**
 * Parses and validates a config file's text. Every problem names the file, line and key path
 * (DECISIONS §8); all of them are thrown together as one SpineError `CONFIG_INVALID`.
 * @example
 * const config = parseConfig(await readFile('spine.yaml', 'utf8'), 'spine.yaml');
 */
export function parseConfig(text: string, fileName: string): SpineConfig {
  if (text.length > maxConfigChars) throw configTooLarge(fileName, `${text.length} characters`);
  const { LineCounter: LineCounterClass, parseDocument } = yaml();
  const lineCounter = new LineCounterClass();
  // Duplicate keys are found by the checker in linear time (yaml's uniqueKeys compares each key with all others).
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const syntaxProblems = readSyntaxProblems(document, lineCounter);
  if (syntaxProblems.length > 0) throw createConfigError(fileName, syntaxProblems);
  if (document.contents === null) {
    throw createConfigError(fileName, [
      { line: 1, path: '', message: 'the file is empty (a models: map is required)' },
    ]);
  }
  const checked = checkConfigNode(document, configSchema, lineCounter);
  const problems = [...checked.problems];
  const converted = toSpineConfig((checked.value ?? {}) as Record<string, unknown>, checked.lines);
  problems.push(...converted.problems);
  if (problems.length > 0) throw createConfigError(fileName, sortByLine(problems));
  return { ...converted.config, source: { file: fileName, lines: checked.lines } };
}

function readSyntaxProblems(document: Document, lineCounter: LineCounter): ConfigProblem[] {
  return document.errors.map((error) => ({
    line: lineCounter.linePos(error.pos[0]).line,
    path: '',
    message: `YAML syntax: ${error.message.split('\n')[0]}`,
  }));
}

function sortByLine(problems: ConfigProblem[]): ConfigProblem[] {
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => a.problem.line - b.problem.line || a.index - b.index)
    .map((entry) => entry.problem);
}
