import type { ToolContext } from '../define-tool.js';
import { describeBinary, isBinaryContent } from './detect-binary.js';
import type { FsContext, FsOperation, FsOperationOutcome } from './fs-context.js';
import { fsError } from './fs-failure.js';
import type { FsLimits } from './fs-limits.js';
import { findLineStarts, type ReadWindowArguments, readWindow } from './read-window.js';
import { resolveMountPath } from './resolve-mount-path.js';
import { openChildFile, openDirectoryChain } from './sandbox-walk.js';
import { sha256Hex } from './sha256-hex.js';

const parameters = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'e.g. @project/src/a.ts' },
    startLine: { type: 'integer', minimum: 1 },
    endLine: { type: 'integer', minimum: 1 },
    offset: { type: 'integer', minimum: 0, description: 'bytes, instead of lines' },
    length: { type: 'integer', minimum: 0 },
  },
  required: ['path'],
  additionalProperties: false,
};

/** `fs.read`: a text file whole, a window of it, or a preview and a hint when it is too large. */
export function createFsRead(context: FsContext): FsOperation {
  return {
    name: 'fs.read',
    // Short on purpose: definitions are sent with every request, and a small model's context may be 1,024 tokens.
    description: 'Read a text file. A large one gives a preview: then read startLine..endLine.',
    parameters,
    writes: false,
    run: (args, toolContext) => readFileTool(context, args, toolContext),
  };
}

async function readFileTool(
  context: FsContext,
  args: Record<string, unknown>,
  _toolContext: ToolContext,
): Promise<FsOperationOutcome> {
  const resolved = await resolveMountPath(context.mounts, args.path);
  const { display, realSegments } = resolved;
  const name = realSegments.at(-1);
  if (name === undefined)
    throw fsError('ENOENT', `${display} is a folder, not a file (use fs.list)`, { path: display });
  const directory = await openDirectoryChain(resolved.mount, realSegments.slice(0, -1), display);
  try {
    const file = await openChildFile(directory, name, display, context.allowHardLinkReads);
    try {
      if (file.stats.size > context.limits.scanBytes) {
        throw fsError(
          'E_READ_LIMIT',
          `the file has ${file.stats.size} bytes, over the limit of ${context.limits.scanBytes}`,
          {
            path: display,
            limit: context.limits.scanBytes,
            bytes: file.stats.size,
          },
        );
      }
      const buffer = await file.handle.readFile();
      return {
        result: describeContent(buffer, args as ReadWindowArguments, context.limits, display),
        audit: { path: display },
      };
    } finally {
      await file.handle.close();
    }
  } finally {
    await directory.handle.close();
  }
}

function describeContent(buffer: Buffer, args: ReadWindowArguments, limits: FsLimits, display: string) {
  const base = { ok: true as const, path: display, bytes: buffer.length, sha256: sha256Hex(buffer) };
  if (isBinaryContent(buffer)) {
    const kind = describeBinary(buffer);
    return {
      ...base,
      truncated: true as const,
      contentPreview: `[binary file: ${kind}, ${buffer.length} bytes; not shown]`,
      hint: 'This is a binary file; its content is not returned. Only text files can be read.',
      binary: true,
    };
  }
  const window = readWindow(buffer, args, limits, display);
  if (window !== undefined)
    return { ...base, truncated: false as const, content: window.content, window: window.window };
  if (buffer.length <= limits.readBytes)
    return { ...base, truncated: false as const, content: buffer.toString('utf8') };
  const totalLines = findLineStarts(buffer).length;
  const previewEnd = cutAtLine(buffer, limits.previewBytes);
  const averageLine = Math.max(1, buffer.length / Math.max(1, totalLines));
  const linesThatFit = Math.max(1, Math.floor(limits.readBytes / averageLine));
  return {
    ...base,
    truncated: true as const,
    contentPreview: buffer.toString('utf8', 0, previewEnd),
    hint:
      `The file has ${buffer.length} bytes in ${totalLines} lines, over the read limit of ${limits.readBytes} bytes; ` +
      `this preview is its first ${previewEnd} bytes. Read a window with startLine/endLine (about ${linesThatFit} ` +
      'lines fit at once) or offset/length, or find the place with fs.search first.',
    totalLines,
  };
}

function cutAtLine(buffer: Buffer, limit: number): number {
  if (buffer.length <= limit) return buffer.length;
  const lastNewline = buffer.lastIndexOf(10, limit - 1);
  return lastNewline > 0 ? lastNewline + 1 : limit;
}
