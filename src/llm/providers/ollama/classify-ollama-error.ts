import { SpineError } from '../../../core/spine-error.js';
import { classifyErrorBody } from '../../errors/classify-error-body.js';
import { classifyHttpError } from '../../errors/classify-http-error.js';

// Ollama's wordings for a model it does not have: `model 'x' not found` (older), `model "x" not found, try
// pulling it first` (newer).
const missingModelPattern = /model ['"]([^'"]+)['"] not found/i;

/** A non-2xx answer from Ollama → SpineError; a missing model says how to get it. */
export function classifyOllamaHttpError(status: number, bodyText: string): SpineError {
  return explainMissingModel(classifyHttpError(status, bodyText));
}

/** An `{"error":"…"}` object inside an Ollama stream (or a 200 body) → SpineError. */
export function classifyOllamaErrorBody(body: unknown, status?: number): SpineError {
  return explainMissingModel(classifyErrorBody(body, status));
}

function explainMissingModel(error: SpineError): SpineError {
  const model = missingModelPattern.exec(error.message)?.[1];
  if (model === undefined) return error;
  return new SpineError({
    code: error.code === 'LLM_SERVER_ERROR' ? 'LLM_HTTP_ERROR' : error.code,
    message: `model "${model}" is not available on this Ollama server: run \`ollama pull ${model}\``,
    retryable: false,
    details: { ...error.details, model, remedy: `ollama pull ${model}` },
    cause: error,
  });
}
