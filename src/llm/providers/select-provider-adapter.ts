import { ollamaAdapter } from './ollama/ollama-adapter.js';
import { openAiChatAdapter } from './openai-chat/openai-chat-adapter.js';
import type { ApiType } from './presets.js';
import type { ProviderAdapter } from './provider-adapter.js';
import { responsesAdapter } from './responses/responses-adapter.js';

const adapters: Readonly<Record<ApiType, ProviderAdapter>> = {
  chat_completions: openAiChatAdapter,
  responses: responsesAdapter,
  ollama: ollamaAdapter,
};

/** The wire dialect for an API type: Chat Completions, the Responses API, or Ollama's native `/api/chat`. */
export function selectProviderAdapter(apiType: ApiType): ProviderAdapter {
  return adapters[apiType];
}
