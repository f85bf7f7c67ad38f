import type { SpineError } from '../../core/spine-error.js';
import { classifyErrorBody } from './classify-error-body.js';

/**
 * A non-2xx response → SpineError, its message parsed from the body whatever the content type (DeepSeek has
 * sent JSON errors as `application/octet-stream`); a body that is not JSON is kept as text.
 */
export function classifyHttpError(status: number, bodyText: string): SpineError {
  return classifyErrorBody(parseBody(bodyText), status);
}

function parseBody(bodyText: string): unknown {
  const trimmed = bodyText.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // A truncated or HTML-wrapped body: fall through to the text.
    }
  }
  return trimmed;
}
