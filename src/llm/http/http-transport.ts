/** One HTTP exchange as the model client needs it, whatever sends it (undici or an injected fetch). */
export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Aborting it ends the exchange at any phase: connecting, waiting for headers, reading the body. */
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body as it arrives. Ends normally at EOF; throws a SpineError (LLM_CONNECTION) on a socket failure. */
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and releases the connection. Safe to call more than once, and after the body ended. */
  cancel(): void;
}

export interface HttpTransport {
  /** Resolves once the status line and headers arrived; rejects with LLM_CONNECTION on a socket failure. */
  send(request: HttpRequest): Promise<HttpResponse>;
}
