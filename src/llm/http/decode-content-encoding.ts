import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { SpineError } from '../../core/spine-error.js';
import { describeUrl } from '../errors/describe-url.js';

const decoders: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

/**
 * A body as its bytes: gzip, deflate and br (which a proxy may apply even unasked) are decoded, and the
 * `content-encoding` header removed so that nothing downstream decodes twice. Another encoding is an error
 * that names it, rather than compressed bytes read as text.
 */
export function decodeContentEncoding(raw: Readable, headers: Record<string, string>, url: string): Readable {
  const encoding = headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return raw;
  const decoder = decoders[encoding];
  if (decoder === undefined) {
    // Nobody will read this body: its abort error has no one to go to.
    raw.on('error', () => undefined);
    raw.destroy();
    throw new SpineError({
      code: 'LLM_BAD_RESPONSE',
      message: `the response from ${describeUrl(url)} is compressed with "${encoding}", which Spine cannot decode (gzip, deflate and br are decoded): turn compression off in the proxy`,
      details: { contentEncoding: encoding },
    });
  }
  delete headers['content-encoding'];
  delete headers['content-length'];
  const decoded = decoder();
  raw.on('error', (error) => decoded.destroy(error));
  decoded.on('error', () => raw.destroy());
  return raw.pipe(decoded);
}
