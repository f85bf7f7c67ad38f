/** Bytes checked for a NUL, as git and ripgrep do. */
export const binaryProbeBytes = 8192;

/** True when the first block holds a NUL byte. */
export function isBinaryContent(buffer: Uint8Array, length = buffer.length): boolean {
  const end = Math.min(length, binaryProbeBytes);
  const found = Buffer.from(buffer.buffer, buffer.byteOffset, end).indexOf(0);
  return found !== -1;
}

const signatures: [string, number[]][] = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['ZIP archive', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip archive', [0x1f, 0x8b]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
];

/** A short description of binary content from its magic number. */
export function describeBinary(buffer: Uint8Array): string {
  for (const [name, bytes] of signatures) {
    if (bytes.every((byte, index) => buffer[index] === byte)) return name;
  }
  return 'binary data';
}
