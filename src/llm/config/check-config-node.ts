import type { Document, LineCounter, Node } from 'yaml';
import { lazyModule } from '../../core/lazy-module.js';
import { type ConfigProblem, suggestClosest } from './config-error.js';
import type { ValueRule } from './config-schema.js';

const yaml = lazyModule<typeof import('yaml')>('yaml');
export interface CheckedConfig {
  /** The document as plain values (keys as written), with every invalid value left out. */
  value: unknown;
  problems: ConfigProblem[];
  /** Line of each key path seen. */
  lines: Record<string, number>;
}

/** Checks a parsed YAML document against a rule, collecting every problem with its line and key path. */
export function checkConfigNode(
  document: Document,
  rule: ValueRule,
  lineCounter: LineCounter,
): CheckedConfig {
  const checker = new ConfigNodeChecker(document, lineCounter);
  try {
    const value = checker.check(document.contents, rule, '', 1);
    return { value, problems: checker.problems, lines: checker.lines };
  } catch (error) {
    if (!(error instanceof TooManyNodes)) throw error;
    const problem = {
      line: 1,
      path: '',
      message: `the file expands to more than ${maxConfigNodeVisits} values through its aliases (*name); write the values out`,
    };
    return { value: undefined, problems: [...checker.problems.slice(0, 20), problem], lines: checker.lines };
  }
}

/**
 * Nodes the check may visit, aliases followed: a config is a few hundred. An alias fan-out (`&a [*b, *b, …]`
 * nested a few levels, the "billion laughs") would otherwise make a 24 KB file cost minutes and gigabytes.
 */
export const maxConfigNodeVisits = 100_000;

class ConfigNodeChecker {
  readonly problems: ConfigProblem[] = [];
  readonly lines: Record<string, number> = {};
  /** Anchors by name, collected once: yaml's own `Alias.resolve` searches the whole document per alias. */
  private readonly anchors = new Map<string, Node>();
  private visits = 0;

  constructor(
    document: Document,
    private readonly lineCounter: LineCounter,
  ) {
    yaml().visit(document, (_key, node) => {
      const anchor = (node as { anchor?: unknown }).anchor;
      if (typeof anchor === 'string' && !yaml().isAlias(node)) this.anchors.set(anchor, node as Node);
    });
  }

  /** The node itself, or the one an alias names; counts every visit against `maxConfigNodeVisits`. */
  private deref(raw: unknown): Node | null | undefined {
    this.visits += 1;
    if (this.visits > maxConfigNodeVisits) throw new TooManyNodes();
    return yaml().isAlias(raw) ? this.anchors.get(raw.source) : (raw as Node | null);
  }

  check(raw: unknown, rule: ValueRule, path: string, keyLine: number): unknown {
    const node = this.deref(raw);
    const line = node?.range ? this.lineAt(node.range[0]) : keyLine;
    if (rule.kind === 'map') return this.checkMap(node, rule, path, line, keyLine);
    if (rule.kind === 'record') return this.checkRecord(node, rule, path, line);
    if (rule.kind === 'string-list') return this.checkStringList(node, path, line);
    if (rule.kind === 'string-map') return this.checkStringMap(node, path, line);
    const scalar = yaml().isScalar(node) ? node.value : node === null || node === undefined ? null : node;
    const problem = describeScalarProblem(scalar, rule);
    if (problem === undefined) return scalar;
    this.report(line, path, problem);
    return undefined;
  }

  private checkMap(
    node: Node | null | undefined,
    rule: ValueRule & { kind: 'map' },
    path: string,
    line: number,
    keyLine: number,
  ) {
    const result: Record<string, unknown> = {};
    const entries = this.readEntries(node, path, line);
    if (!entries) return undefined;
    const known = Object.keys(rule.fields);
    for (const entry of entries) {
      const field = rule.fields[entry.key];
      if (!field) {
        const suggestion = suggestClosest(entry.key, known);
        const hint = suggestion ? ` (did you mean ${suggestion}?)` : ` (known keys: ${known.join(', ')})`;
        this.report(entry.line, entry.path, `unknown key${hint}`);
        continue;
      }
      const value = this.check(entry.value, field, entry.path, entry.line);
      if (value !== undefined) result[entry.key] = value;
    }
    for (const key of rule.required ?? []) {
      if (!entries.some((entry) => entry.key === key)) this.report(keyLine, join(path, key), 'is required');
    }
    return result;
  }

  private checkRecord(
    node: Node | null | undefined,
    rule: ValueRule & { kind: 'record' },
    path: string,
    line: number,
  ) {
    const entries = this.readEntries(node, path, line);
    if (!entries) return undefined;
    if (entries.length === 0) this.report(line, path, 'must name at least one model role');
    const result: Record<string, unknown> = {};
    for (const entry of entries) {
      if (!rule.keyPattern.test(entry.key)) {
        this.report(entry.line, entry.path, rule.keyMessage);
        continue;
      }
      const value = this.check(entry.value, rule.value, entry.path, entry.line);
      if (value !== undefined) result[entry.key] = value;
    }
    return result;
  }

  private checkStringList(node: Node | null | undefined, path: string, line: number) {
    if (
      !yaml().isSeq(node) ||
      !node.items.every((item) => yaml().isScalar(item) && typeof item.value === 'string')
    ) {
      this.report(line, path, 'must be a list of strings');
      return undefined;
    }
    return node.items.map((item) => (yaml().isScalar(item) ? item.value : ''));
  }

  private checkStringMap(node: Node | null | undefined, path: string, line: number) {
    const entries = this.readEntries(node, path, line);
    if (!entries) return undefined;
    const result: Record<string, string> = {};
    for (const entry of entries) {
      const valueNode = this.deref(entry.value);
      const value = yaml().isScalar(valueNode) ? valueNode.value : undefined;
      if (typeof value === 'string') result[entry.key] = value;
      else this.report(entry.line, entry.path, 'must be a string');
    }
    return result;
  }

  /** The map's entries with their key lines, or undefined (reported) when the node is not a map. */
  private readEntries(node: Node | null | undefined, path: string, line: number) {
    if (!yaml().isMap(node)) {
      this.report(line, path, 'must be a map');
      return undefined;
    }
    const entries: { key: string; path: string; line: number; value: unknown }[] = [];
    const firstLines = new Map<string, number>();
    for (const pair of node.items) {
      const keyNode = this.deref(pair.key);
      const keyLine = keyNode?.range ? this.lineAt(keyNode.range[0]) : line;
      const key = yaml().isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string' && typeof key !== 'number') {
        this.report(keyLine, path, 'keys must be plain words');
        continue;
      }
      const entryPath = join(path, String(key));
      // Checked here with a Map: yaml's own uniqueKeys check compares every key with every other one.
      const first = firstLines.get(String(key));
      if (first !== undefined) {
        this.report(keyLine, entryPath, `duplicate key (first on line ${first})`);
        continue;
      }
      firstLines.set(String(key), keyLine);
      this.lines[entryPath] = keyLine;
      entries.push({ key: String(key), path: entryPath, line: keyLine, value: pair.value });
    }
    return entries;
  }

  private lineAt(offset: number): number {
    return this.lineCounter.linePos(offset).line;
  }

  private report(line: number, path: string, message: string): void {
    this.problems.push({ line, path, message });
  }
}

function describeScalarProblem(value: unknown, rule: ValueRule): string | undefined {
  switch (rule.kind) {
    case 'string':
      if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
      return rule.pattern && !rule.pattern.test(value) ? rule.patternMessage : undefined;
    case 'url':
      return typeof value === 'string' && /^https?:\/\/[^\s/]+/.test(value)
        ? undefined
        : 'must be an http(s) URL';
    case 'integer':
      return Number.isInteger(value) && (value as number) >= rule.min
        ? undefined
        : rule.min === 1
          ? 'must be a positive integer'
          : `must be an integer of at least ${rule.min}`;
    case 'number':
      return describeNumberProblem(value, rule);
    case 'choice':
      return rule.values.includes(value as string | boolean | null)
        ? undefined
        : `must be one of ${rule.values.map(renderChoice).join(', ')}`;
    default:
      return 'has an unexpected shape';
  }
}

function describeNumberProblem(value: unknown, rule: ValueRule & { kind: 'number' }): string | undefined {
  const fits =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (rule.minExclusive ? value > rule.min : value >= rule.min) &&
    (rule.max === undefined || value <= rule.max);
  if (fits) return undefined;
  if (rule.max !== undefined) return `must be a number from ${rule.min} to ${rule.max}`;
  return rule.minExclusive
    ? `must be a number above ${rule.min}`
    : `must be a number of at least ${rule.min}`;
}

function renderChoice(value: string | boolean | null): string {
  if (value === '') return '""';
  return String(value);
}

class TooManyNodes extends Error {}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
