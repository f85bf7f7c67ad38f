import { fsError } from './fs-failure.js';
import type { FsLimits } from './fs-limits.js';

export interface ReadWindowArguments {
  offset?: number;
  length?: number;
  startLine?: number;
  endLine?: number;
}

export interface ReadWindow {
  content: string;
  window: Record<string, number>;
}

/** The requested window of a text file, or undefined when the whole file was asked for. */
export function readWindow(
  buffer: Buffer,
  args: ReadWindowArguments,
  limits: FsLimits,
  display: string,
): ReadWindow | undefined {
  const byBytes = args.offset !== undefined || args.length !== undefined;
  const byLines = args.startLine !== undefined || args.endLine !== undefined;
  if (byBytes && byLines) {
    throw fsError('E_SCHEMA_VALIDATION', 'give either offset/length or startLine/endLine, not both', {
      path: display,
    });
  }
  if (byBytes) return readByteWindow(buffer, args, limits, display);
  if (byLines) return readLineWindow(buffer, args, limits, display);
  return undefined;
}

function readByteWindow(
  buffer: Buffer,
  args: ReadWindowArguments,
  limits: FsLimits,
  display: string,
): ReadWindow {
  const offset = args.offset ?? 0;
  const length = args.length ?? Math.min(limits.readBytes, Math.max(0, buffer.length - offset));
  if (length > limits.readBytes) {
    throw fsError(
      'E_READ_LIMIT',
      `a window of ${length} bytes is over the read limit of ${limits.readBytes}`,
      {
        path: display,
        limit: limits.readBytes,
        requested: length,
      },
    );
  }
  const end = Math.min(buffer.length, offset + length);
  const content = offset >= buffer.length ? '' : buffer.toString('utf8', offset, end);
  return { content, window: { offset, length: Math.max(0, end - offset), fileBytes: buffer.length } };
}

function readLineWindow(
  buffer: Buffer,
  args: ReadWindowArguments,
  limits: FsLimits,
  display: string,
): ReadWindow {
  const lineStarts = findLineStarts(buffer);
  const totalLines = lineStarts.length;
  const startLine = Math.max(1, args.startLine ?? 1);
  const startByte = startLine <= totalLines ? lineStarts[startLine - 1]! : buffer.length;
  const lineEnd = (line: number) => (line < totalLines ? lineStarts[line]! : buffer.length);
  let endLine = Math.min(totalLines, args.endLine ?? totalLines);
  if (args.endLine === undefined) {
    // No end given: as many whole lines as fit in the read limit.
    while (endLine > startLine && lineEnd(endLine) - startByte > limits.readBytes) endLine -= 1;
  }
  endLine = Math.max(endLine, Math.min(startLine, totalLines));
  const endByte = startLine > totalLines ? buffer.length : lineEnd(endLine);
  if (endByte - startByte > limits.readBytes) {
    throw fsError(
      'E_READ_LIMIT',
      `lines ${startLine}-${endLine} hold ${endByte - startByte} bytes, over the read limit of ${limits.readBytes}: ask for fewer lines`,
      { path: display, limit: limits.readBytes, requested: endByte - startByte, startLine, endLine },
    );
  }
  return {
    content: buffer.toString('utf8', startByte, endByte),
    window: { startLine, endLine: startLine > totalLines ? totalLines : endLine, totalLines },
  };
}

/** Byte offsets where each line starts; a file ending in a newline has no extra empty last line. */
export function findLineStarts(buffer: Buffer): number[] {
  const starts = buffer.length === 0 ? [] : [0];
  let index = buffer.indexOf(10);
  while (index !== -1) {
    if (index + 1 < buffer.length) starts.push(index + 1);
    index = buffer.indexOf(10, index + 1);
  }
  return starts;
}
