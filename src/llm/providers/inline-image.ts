import { SpineError } from '../../core/spine-error.js';

/**
 * The base64 bytes of an image given as a `data:` URL. Ollama takes images only inline, on its native API and on
 * its `/v1` route alike (RUNNER-QUIRKS §52); a remote URL is refused here, before the request, with the fix —
 * fetching it on the runner's behalf is not the client's call.
 */
export function inlineImageBytes(url: string): string {
  const match = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  if (match) return match[1] as string;
  throw new SpineError({
    code: 'LLM_HTTP_ERROR',
    message: 'Ollama accepts images only inline: give a data:image/…;base64,… URL instead of a remote one',
    details: { url: url.slice(0, 200) },
  });
}
