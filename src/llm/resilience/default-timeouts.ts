/**
 * The client's clocks when nothing is configured. Local runners load a model before the first byte (LM Studio
 * and Ollama hold the request 10–30 s, RUNNER-QUIRKS §56) and generate slowly on a CPU, so the whole call may
 * take minutes; a server that accepted the request and then says nothing is reported within a minute.
 */
export const defaultTimeouts = {
  /** The whole call, retries included. */
  timeoutMs: 600_000,
  /** Each attempt's wait for the response headers. */
  firstByteTimeoutMs: 60_000,
  /** Silence between chunks once the response started. */
  idleTimeoutMs: 30_000,
} as const;
