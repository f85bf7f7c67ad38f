import { ZipFile } from 'yazl';

export interface ZipEntry {
  name: string;
  content?: string;
  /** Unix mode, e.g. 0o120777 for a symbolic link. */
  mode?: number;
}

/**
 * A zip built in memory with yazl. `rename` then swaps entry names byte for byte (same length) in the finished
 * archive: zip writers refuse to write hostile names, so a test writes a harmless one and swaps it in.
 */
export async function makeZip(entries: ZipEntry[], rename: Record<string, string> = {}): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) zip.addEmptyDirectory(entry.name);
    else
      zip.addBuffer(
        Buffer.from(entry.content ?? ''),
        entry.name,
        entry.mode === undefined ? {} : { mode: entry.mode },
      );
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(rename)) {
    if (from.length !== to.length) throw new Error('a renamed entry keeps its length');
    bytes = Buffer.from(bytes.toString('latin1').replaceAll(from, to), 'latin1');
  }
  return bytes;
}
