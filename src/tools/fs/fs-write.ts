import { unlink } from 'node:fs/promises';
import type { FsContext, FsOperation } from './fs-context.js';
import { fsError } from './fs-failure.js';
import { resolveMountPath } from './resolve-mount-path.js';
import { writeFileAtomically } from './write-file-atomically.js';

const parameters = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      description:
        'File to write, e.g. "@project/artifacts/notes.md". Missing folders are created. @pkg is read-only.',
    },
    content: { type: 'string', description: 'The complete new content of the file (UTF-8 text).' },
    ifMatchSha256: {
      type: 'string',
      description:
        'Only write if the file still has this sha256 (from fs.read); protects against overwriting changes.',
    },
  },
  required: ['path', 'content'],
  additionalProperties: false,
};

/** `fs.write`: replaces a whole file atomically. */
export function createFsWrite(context: FsContext): FsOperation {
  return {
    name: 'fs.write',
    description:
      'Create or replace a whole text file, atomically. For small changes to an existing file prefer fs.apply_patch.',
    parameters,
    writes: true,
    run: async (args) => {
      if (typeof args.content !== 'string') {
        throw fsError('E_SCHEMA_VALIDATION', 'content must be a string');
      }
      const content = Buffer.from(args.content, 'utf8');
      if (content.length > context.limits.writeBytes) {
        throw fsError(
          'E_WRITE_LIMIT',
          `${content.length} bytes is over the write limit of ${context.limits.writeBytes}`,
          {
            limit: context.limits.writeBytes,
            bytes: content.length,
          },
        );
      }
      const resolved = await resolveMountPath(context.mounts, args.path);
      const guard = context.writeRules.guardFor?.(resolved.display);
      let guarded: Record<string, unknown> | undefined = {};
      const written = await writeFileAtomically({
        context,
        resolved,
        needsCurrentContent: guard !== undefined,
        produce: (current) => {
          if (guard !== undefined) guarded = guard(current?.toString('utf8') ?? '', args.content as string);
          return content;
        },
        ifMatchSha256: typeof args.ifMatchSha256 === 'string' ? args.ifMatchSha256 : undefined,
      });
      if (written.sha256Before === null && context.writeRules.afterCreate !== undefined) {
        try {
          await context.writeRules.afterCreate(resolved.display);
        } catch (error) {
          await unlink(resolved.realPath).catch(() => undefined);
          throw error;
        }
      }
      return {
        result: {
          ok: true,
          path: resolved.display,
          bytesWritten: written.bytesWritten,
          sha256After: written.sha256After,
          ...guarded,
        },
        audit: {
          path: resolved.display,
          sha256Before: written.sha256Before,
          sha256After: written.sha256After,
        },
      };
    },
  };
}
