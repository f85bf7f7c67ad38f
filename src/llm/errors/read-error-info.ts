/** What a runner said about a failure, read from any of the common error body shapes. */
export interface ErrorInfo {
  message: string;
  type?: string;
  /** The provider's own code: a string (`context_length_exceeded`) or a number (vLLM, llama.cpp: the status). */
  providerCode?: string | number;
  /** llama.cpp adds the prompt size and the context size to `exceed_context_size_error`. */
  promptTokens?: number;
  contextTokens?: number;
}

const maxMessageLength = 1000;

/**
 * Reads the message from the shapes RUNNER-QUIRKS §53 lists: `{error:{message,type,code}}` (OpenAI, Azure,
 * DeepSeek, vLLM ≥ 0.10.1, llama.cpp, LM Studio), `{error:"…"}` (Ollama native), a flat `{message,type,code}`
 * (vLLM < 0.10.1, llama.cpp's unknown-route 404; Mistral's `message` can be an object), `{detail}` (FastAPI).
 * Returns undefined when the value is not an object carrying any of them.
 */
export function readErrorInfo(body: unknown): ErrorInfo | undefined {
  if (!isRecord(body)) return undefined;
  const error = body.error;
  if (typeof error === 'string') return { message: capMessage(error) };
  if (isRecord(error)) return readErrorObject(error) ?? { message: capMessage(JSON.stringify(error)) };
  if (error !== undefined && error !== null && error !== false) return { message: capMessage(String(error)) };
  const flat = readErrorObject(body);
  if (flat) return flat;
  if (body.detail !== undefined && body.detail !== null)
    return { message: capMessage(describeValue(body.detail)) };
  return undefined;
}

function readErrorObject(record: Record<string, unknown>): ErrorInfo | undefined {
  if (record.message === undefined || record.message === null) return undefined;
  const info: ErrorInfo = { message: capMessage(describeValue(record.message)) };
  if (typeof record.type === 'string' && record.type !== '') info.type = record.type;
  const code = record.code;
  if ((typeof code === 'string' && code !== '') || (typeof code === 'number' && Number.isFinite(code)))
    info.providerCode = code;
  if (typeof record.n_prompt_tokens === 'number') info.promptTokens = record.n_prompt_tokens;
  if (typeof record.n_ctx === 'number') info.contextTokens = record.n_ctx;
  return info;
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** Trims and caps a message so a huge HTML error page never floods a log line. */
export function capMessage(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > maxMessageLength ? `${trimmed.slice(0, maxMessageLength)}…` : trimmed;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
