import type { ErrorInfo } from './read-error-info.js';

const overflowCodes = new Set([
  'context_length_exceeded',
  'exceed_context_size_error',
  'string_above_max_length',
]);

// Wordings seen in the wild (RUNNER-QUIRKS §54): OpenAI and vLLM "maximum context length", vLLM's older
// scheduler "Input prompt (N tokens) is too long", vLLM's "max_tokens must be at least 1, got -N" when the
// prompt already fills the window, llama.cpp "exceeds the available context size" and the older "larger than
// the max context size", Ollama "input length exceeds the context length" / "exceeded max context length",
// Anthropic-backed routers "prompt is too long", LM Studio "does not fit in context length", "tokens to keep
// from the initial prompt is greater than the context length", "Cannot truncate prompt with n_keep (N) >= n_ctx"
// and "Trying to keep the first N tokens when context the overflows".
const overflowWording = new RegExp(
  [
    'maximum context length',
    'context[ _]length[ _]exceeded',
    'input prompt .*too long',
    'exceeds? (the )?available context size',
    'larger than the max context size',
    'exceeds? the (maximum )?context length',
    'exceeded max context length',
    'prompt is too long',
    'max_tokens must be at least 1, got -\\d+',
    'does not fit in(to)? (the )?context',
    'tokens to keep from the initial prompt is greater than the context length',
    'cannot truncate prompt with n_keep',
    'when context the overflows',
  ].join('|'),
  'i',
);

/** True when a runner's error says the request does not fit the model's context window. */
export function isContextOverflow(info: ErrorInfo): boolean {
  if (info.type !== undefined && overflowCodes.has(info.type)) return true;
  if (typeof info.providerCode === 'string' && overflowCodes.has(info.providerCode)) return true;
  return overflowWording.test(info.message);
}
