import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolMessage } from '../core/types.js';

/** How much of one tool result goes to the model. */
export interface ToolResultLimit {
  /**
   * Largest tool message content sent whole (bytes). Default: about a quarter of the context when its length is
   * known (at ~4 bytes a token, as many bytes as the context has tokens), else 128 KiB.
   */
  maxBytes?: number;
  /**
   * How the model's tools name the run folder (the CLI mounts it as `@state`): the hint then gives the model the
   * path of the full result to read in parts. Without it the result is still saved, and the hint says so.
   */
  runFolderMount?: string;
}

const defaultMaxBytes = 128 * 1024;
const previewChars = 4 * 1024;
export const toolResultsFolder = 'tool-results';

export function resolveToolResultMaxBytes(
  limit: ToolResultLimit | undefined,
  contextLength?: number,
): number {
  if (limit?.maxBytes !== undefined) return limit.maxBytes;
  if (contextLength !== undefined && contextLength > 0)
    return Math.min(defaultMaxBytes, Math.max(8192, contextLength));
  return defaultMaxBytes;
}

/**
 * A tool message whose content is over the limit becomes a preview: `{ ok, truncated: true, bytes, preview,
 * savedAs?, hint }`. The full result is kept in `<runDir>/tool-results/<call id>.json`, so nothing is lost and the
 * model can read it in parts; one 10 MB result can no longer fill a 32k context and fail the run.
 */
export async function capToolMessage(
  message: ToolMessage,
  ok: boolean,
  maxBytes: number,
  runDir: string | undefined,
  runFolderMount: string | undefined,
): Promise<ToolMessage> {
  const bytes = Buffer.byteLength(message.content, 'utf8');
  if (bytes <= maxBytes) return message;
  const fileName = `${message.tool_call_id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'call'}.json`;
  let saved: string | undefined;
  if (runDir !== undefined) {
    const folder = join(runDir, toolResultsFolder);
    try {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, fileName), message.content, 'utf8');
      saved = `${toolResultsFolder}/${fileName}`;
    } catch {
      // A full disk loses the full copy, not the run: the model still gets the preview.
    }
  }
  const where =
    saved === undefined
      ? 'It was not kept.'
      : runFolderMount === undefined
        ? `The whole result is saved in the run folder as ${saved}.`
        : `The whole result is in ${runFolderMount}/${saved}: read the part you need with fs.read (startLine/endLine) or fs.search.`;
  const capped = {
    ok,
    truncated: true,
    bytes,
    limitBytes: maxBytes,
    preview: message.content.slice(0, previewChars),
    ...(saved !== undefined
      ? { savedAs: runFolderMount === undefined ? saved : `${runFolderMount}/${saved}` }
      : {}),
    hint: `The tool result was ${bytes} bytes, over the ${maxBytes}-byte limit for one result; this is its start. ${where}`,
  };
  return { ...message, content: JSON.stringify(capped) };
}
