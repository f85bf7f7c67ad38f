import { applyTextEdits, type TextEdit } from './apply-text-edits.js';
import { applyUnifiedDiff } from './apply-unified-diff.js';
import type { FsContext, FsOperation } from './fs-context.js';
import { fsError } from './fs-failure.js';
import { resolveMountPath } from './resolve-mount-path.js';
import { checkFrontmatterUpdate, updateFrontmatter } from './update-frontmatter.js';
import { writeFileAtomically } from './write-file-atomically.js';

const appendStrings = {
  type: 'object',
  properties: { append: { type: 'array', items: { type: 'string' } } },
  required: ['append'],
  additionalProperties: false,
};
const setString = {
  type: 'object',
  properties: { set: { type: 'string' } },
  required: ['set'],
  additionalProperties: false,
};

const parameters = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File to change, e.g. "@state/workflow.md". It must exist.' },
    operation: {
      type: 'string',
      enum: ['updateFrontmatter', 'replace', 'unifiedDiff'],
      description:
        'updateFrontmatter: change the YAML frontmatter of a markdown file (give `update`). ' +
        'replace: exact search/replace blocks (give `edits`). unifiedDiff: apply a unified diff (give `diff`).',
    },
    update: {
      type: 'object',
      description: 'For updateFrontmatter: what to append to lists and what to set.',
      properties: {
        stepsCompleted: { ...appendStrings, description: 'Node ids to append to stepsCompleted.' },
        variables: {
          type: 'object',
          properties: { set: { type: 'object' } },
          required: ['set'],
          additionalProperties: false,
          description: 'Keys to set in variables.',
        },
        decisionLog: {
          type: 'object',
          properties: { append: { type: 'array', items: { type: 'object' } } },
          required: ['append'],
          additionalProperties: false,
          description: 'Decision records to append to decisionLog.',
        },
        artifacts: { ...appendStrings, description: 'Artifact paths to append to artifacts.' },
        currentNodeId: { ...setString, description: 'The new currentNodeId.' },
        updatedAt: { ...setString, description: 'The new updatedAt (ISO 8601 time).' },
      },
      additionalProperties: false,
    },
    edits: {
      type: 'array',
      description:
        'For replace: blocks applied in order; each `search` must occur exactly once in the file, verbatim.',
      items: {
        type: 'object',
        properties: { search: { type: 'string' }, replace: { type: 'string' } },
        required: ['search', 'replace'],
        additionalProperties: false,
      },
    },
    diff: { type: 'string', description: 'For unifiedDiff: a unified diff of this one file (@@ hunks).' },
    ifMatchSha256: {
      type: 'string',
      description: 'Only apply if the file still has this sha256 (from fs.read).',
    },
    patch: {
      type: 'object',
      description:
        'The same fields nested: { operation, update | edits | diff, ifMatchSha256? } (either form is read).',
    },
  },
  required: ['path'],
  additionalProperties: false,
};

/** `fs.apply_patch`: a frontmatter update, search/replace blocks or a unified diff, applied atomically. */
export function createFsApplyPatch(context: FsContext): FsOperation {
  return {
    name: 'fs.apply_patch',
    description:
      'Change an existing text file atomically: update the YAML frontmatter of a markdown file, apply exact ' +
      'search/replace blocks, or apply a unified diff. Returns the sha256 before and after.',
    parameters,
    writes: true,
    run: async (given) => {
      const args = flattenPatchArguments(given);
      const transform = selectTransform(args);
      const resolved = await resolveMountPath(context.mounts, args.path);
      const guard = context.writeRules.guardFor?.(resolved.display);
      let guarded: Record<string, unknown> | undefined = {};
      const written = await writeFileAtomically({
        context,
        resolved,
        mustExist: true,
        ifMatchSha256: typeof args.ifMatchSha256 === 'string' ? args.ifMatchSha256 : undefined,
        needsCurrentContent: true,
        produce: (current) => {
          const text = current!.toString('utf8');
          const next = transform(text, resolved.display);
          if (guard !== undefined) guarded = guard(text, next);
          return Buffer.from(next, 'utf8');
        },
      });
      const facts = { sha256Before: written.sha256Before ?? undefined, sha256After: written.sha256After };
      return {
        result: { ok: true, path: resolved.display, ...facts, ...guarded },
        audit: { path: resolved.display, ...facts },
      };
    },
  };
}

/**
 * The flat form `{ path, operation, update }` and the nested `{ path, patch: { operation, update } }` are both
 * in use (docs/workflows.md, decision 3); the nested fields win where both are given.
 */
function flattenPatchArguments(args: Record<string, unknown>): Record<string, unknown> {
  const { patch, ...flat } = args;
  if (patch === undefined) return flat;
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
    throw fsError('E_SCHEMA_VALIDATION', '`patch` must be an object: { operation, update | edits | diff }');
  return { ...flat, ...(patch as Record<string, unknown>) };
}

function selectTransform(args: Record<string, unknown>): (text: string, display: string) => string {
  switch (args.operation) {
    case 'updateFrontmatter': {
      const update = checkFrontmatterUpdate(args.update);
      return (text, display) => updateFrontmatter(text, update, display);
    }
    case 'replace': {
      if (!Array.isArray(args.edits) || args.edits.length === 0) {
        throw fsError('E_SCHEMA_VALIDATION', 'operation "replace" needs a non-empty `edits` list');
      }
      const edits = args.edits as TextEdit[];
      return (text, display) => applyTextEdits(text, edits, display);
    }
    case 'unifiedDiff': {
      if (typeof args.diff !== 'string')
        throw fsError('E_SCHEMA_VALIDATION', 'operation "unifiedDiff" needs `diff`');
      const diff = args.diff;
      return (text, display) => applyUnifiedDiff(text, diff, display);
    }
    default:
      throw fsError('E_SCHEMA_VALIDATION', 'operation must be updateFrontmatter, replace or unifiedDiff');
  }
}
