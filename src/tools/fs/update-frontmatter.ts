import type { Document } from 'yaml';
import { lazyModule } from '../../core/lazy-module.js';
import { rememberFrontmatter } from './frontmatter-cache.js';
import { fsError } from './fs-failure.js';

const yaml = lazyModule<typeof import('yaml')>('yaml');
/** The `updateFrontmatter` operation of spec §6.6. */
export interface FrontmatterUpdate {
  stepsCompleted?: { append: string[] };
  variables?: { set: Record<string, unknown> };
  decisionLog?: { append: Array<Record<string, unknown>> };
  artifacts?: { append: string[] };
  currentNodeId?: { set: string };
  updatedAt?: { set: string };
}

const frontmatterPattern = /^---[ \t]*(\r?\n)(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/**
 * Applies an update to a markdown file's YAML frontmatter. The body after the closing `---` is kept byte for
 * byte; comments and key order of the frontmatter survive (yaml's Document API edits it in place).
 */
export function updateFrontmatter(text: string, update: FrontmatterUpdate, display: string): string {
  const found = frontmatterPattern.exec(text);
  if (found === null) {
    throw fsError('E_INVALID_FRONTMATTER', `${display} does not start with a YAML frontmatter block (---)`, {
      path: display,
    });
  }
  const newline = found[1]!;
  const document = yaml().parseDocument(found[2] ?? '');
  if (document.errors.length > 0) {
    throw fsError(
      'E_INVALID_FRONTMATTER',
      `the frontmatter of ${display} does not parse: ${document.errors[0]!.message}`,
      {
        path: display,
        errors: document.errors.map((error) => error.message),
      },
    );
  }
  // A frontmatter with only comments or nothing in it is an empty mapping.
  if (document.contents === null)
    document.contents = document.createNode({}) as unknown as typeof document.contents;
  if (!yaml().isMap(document.contents)) {
    throw fsError('E_INVALID_FRONTMATTER', `the frontmatter of ${display} is not a mapping`, {
      path: display,
    });
  }
  appendTo(document, 'stepsCompleted', update.stepsCompleted?.append, display);
  setIn(document, update.variables?.set, display);
  appendTo(document, 'decisionLog', update.decisionLog?.append, display);
  appendTo(document, 'artifacts', update.artifacts?.append, display);
  if (update.currentNodeId !== undefined) document.set('currentNodeId', update.currentNodeId.set);
  if (update.updatedAt !== undefined) document.set('updatedAt', update.updatedAt.set);
  let yamlText = document.toString({ lineWidth: 0 });
  if (newline === '\r\n') yamlText = yamlText.replace(/\r?\n/g, '\r\n');
  const next = `---${newline}${yamlText}---${newline}${text.slice(found[0].length)}`;
  // Whoever checks the new text next (a workflow's state guard) finds it parsed.
  rememberFrontmatter(next, document.toJS() as Record<string, unknown>);
  return next;
}

function appendTo(document: Document, key: string, items: unknown[] | undefined, display: string): void {
  if (items === undefined) return;
  const existing = document.get(key, true);
  if (existing === undefined || existing === null) {
    document.set(key, document.createNode(key === 'decisionLog' ? items : [...new Set(items)]));
    return;
  }
  if (!yaml().isSeq(existing)) {
    throw fsError('E_INVALID_FRONTMATTER', `${key} in the frontmatter of ${display} is not a list`, {
      path: display,
      key,
    });
  }
  // stepsCompleted and artifacts are sets in order: an id or path already there is not added again.
  const unique = key !== 'decisionLog';
  const present = new Set(
    unique ? existing.items.map((item) => String(yaml().isScalar(item) ? item.value : item)) : [],
  );
  for (const item of items) {
    if (unique && present.has(String(item))) continue;
    present.add(String(item));
    existing.add(document.createNode(item));
  }
}

function setIn(document: Document, values: Record<string, unknown> | undefined, display: string): void {
  if (values === undefined) return;
  const existing = document.get('variables', true);
  if (existing === undefined || existing === null) {
    document.set('variables', document.createNode(values));
    return;
  }
  if (!yaml().isMap(existing)) {
    throw fsError('E_INVALID_FRONTMATTER', `variables in the frontmatter of ${display} is not a mapping`, {
      path: display,
      key: 'variables',
    });
  }
  for (const [key, value] of Object.entries(values)) existing.set(key, document.createNode(value));
}

/** Checks an update's shape when the ToolHost's schema check was bypassed (direct calls). */
export function checkFrontmatterUpdate(value: unknown): FrontmatterUpdate {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw fsError('E_SCHEMA_VALIDATION', 'update must be an object');
  }
  const update = value as Record<string, { append?: unknown; set?: unknown } | undefined>;
  const known = ['stepsCompleted', 'variables', 'decisionLog', 'artifacts', 'currentNodeId', 'updatedAt'];
  for (const key of Object.keys(update)) {
    if (!known.includes(key))
      throw fsError('E_SCHEMA_VALIDATION', `update.${key} is not supported (use ${known.join(', ')})`);
  }
  const list = (key: string, itemType: 'string' | 'object') => {
    const items = update[key]?.append;
    if (update[key] === undefined) return;
    if (!Array.isArray(items) || !items.every((item) => typeof item === itemType && item !== null)) {
      throw fsError('E_SCHEMA_VALIDATION', `update.${key}.append must be a list of ${itemType}s`);
    }
  };
  list('stepsCompleted', 'string');
  list('artifacts', 'string');
  list('decisionLog', 'object');
  const variables = update.variables?.set;
  if (
    update.variables !== undefined &&
    (typeof variables !== 'object' || variables === null || Array.isArray(variables))
  ) {
    throw fsError('E_SCHEMA_VALIDATION', 'update.variables.set must be an object');
  }
  for (const key of ['currentNodeId', 'updatedAt']) {
    if (update[key] !== undefined && typeof update[key]?.set !== 'string') {
      throw fsError('E_SCHEMA_VALIDATION', `update.${key}.set must be a string`);
    }
  }
  return update as FrontmatterUpdate;
}
