import type { ChatMessage, ModelClient, ModelRequest } from '../../core/types.js';

/**
 * A model client that puts freshly composed messages before every request's history: a workflow run's system
 * layers and shells are rebuilt from the state for each call and never enter the history (decision 18).
 */
export function composingClient(llm: ModelClient, compose: () => Promise<ChatMessage[]>): ModelClient {
  const withShells = async (request: ModelRequest): Promise<ModelRequest> => ({
    ...request,
    messages: [...(await compose()), ...request.messages],
  });
  return {
    respond: async (request) => llm.respond(await withShells(request)),
    stream: (request) =>
      (async function* () {
        yield* llm.stream(await withShells(request));
      })(),
  };
}
