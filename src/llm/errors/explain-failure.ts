import { SpineError } from '../../core/spine-error.js';
import { describeUrl } from './describe-url.js';

/** Where runners listen by default: a refused connection there names the runner that was expected. */
const defaultPorts: Record<string, string> = {
  '11434': "Ollama's default port: is `ollama serve` running?",
  '8080': "llama-server's default port: is `llama-server` running?",
  '1234': "LM Studio's default port: is its server started (Developer tab, or `lms server start`)?",
  '8000': "vLLM's default port: is `vllm serve` running?",
};

/**
 * The next step for a failed call, in one place so every error (and the README's error table) gives the same
 * advice: which flag or setting to look at, or which runner is not running. Undefined when there is nothing
 * better to say than the error itself.
 */
export function hintFor(error: SpineError, url: string): string | undefined {
  const status = error.details.status;
  if (error.code === 'LLM_AUTH_FAILED') {
    return 'check the API key: --api-key, the LLM_API_KEY variable, or api_key_env in spine.yaml';
  }
  if (error.code === 'LLM_CONNECTION') return connectionHint(error, url);
  if (status === 404 && error.details.model === undefined) {
    if (/model/i.test(error.message))
      return 'the server does not know this model: `spine doctor` lists the models it serves';
    // Runners that predate the Responses API have no such route (RUNNER-QUIRKS §67).
    if (/\/responses\/?(\?|$)/.test(url))
      return 'this runner has no /responses route: use --api-type chat_completions (api_type in spine.yaml), or check --base-url';
    return 'check --base-url: nothing answers at this path (OpenAI-compatible runners usually want a base URL ending in /v1; Ollama native wants the server root)';
  }
  if (status === 405) return 'check --base-url and --api-type: this path does not take POST requests';
  if (/roles must alternate/i.test(error.message))
    return "the model's chat template wants user and assistant turns to alternate: merge consecutive messages of one role";
  return undefined;
}

function connectionHint(error: SpineError, url: string): string | undefined {
  const networkCode = error.details.networkCode;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (networkCode === 'ENOTFOUND' || networkCode === 'EAI_AGAIN') {
    return `the host ${parsed.hostname} does not resolve: check --base-url`;
  }
  if (networkCode === 'ECONNREFUSED') {
    const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
    const known = defaultPorts[port];
    return known !== undefined
      ? `nothing listens on ${parsed.host}, ${known}`
      : `nothing listens on ${parsed.host}: is the runner started, and is --base-url right?`;
  }
  return undefined;
}

/**
 * An HTTP failure with the request it answered: `HTTP 404 from POST http://…/v1/chat/completions: <runner's
 * message> (<next step>)`. The URL is shown without credentials; status, URL and hint are also in `details`.
 */
export function explainHttpFailure(error: SpineError, url: string): SpineError {
  const status = error.details.status;
  const shownUrl = describeUrl(url);
  const hint = hintFor(error, url);
  const head = typeof status === 'number' ? `HTTP ${status} from POST ${shownUrl}` : `POST ${shownUrl}`;
  return new SpineError({
    code: error.code,
    message: `${head}: ${error.message}${hint ? ` (${hint})` : ''}`,
    retryable: error.retryable,
    details: { ...error.details, url: shownUrl, ...(hint ? { hint } : {}) },
    cause: error.cause ?? error,
  });
}
