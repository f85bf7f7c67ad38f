/** What differs between OpenAI-compatible chat runners on the request side. Issue 3 grows this table. */
export interface ChatProviderTraits {
  /** Accepts `stream_options: { include_usage: true }` on streamed requests (RUNNER-QUIRKS §44). */
  streamUsage: boolean;
  /** Wants `reasoning_content` sent back on assistant tool-call messages (DECISIONS.md §7, RUNNER-QUIRKS §37). */
  replaysReasoningContent: boolean;
}

const defaultTraits: ChatProviderTraits = { streamUsage: false, replaysReasoningContent: false };

const traitsByProvider: Record<string, ChatProviderTraits> = {
  openai: { streamUsage: true, replaysReasoningContent: false },
  azure: { streamUsage: true, replaysReasoningContent: false },
  'openai-compatible': { streamUsage: true, replaysReasoningContent: false },
  vllm: { streamUsage: true, replaysReasoningContent: false },
  llamacpp: { streamUsage: true, replaysReasoningContent: false },
  deepseek: { streamUsage: true, replaysReasoningContent: true },
};

/** Traits of a provider preset; an unknown name gets the most conservative ones. */
export function getChatProviderTraits(provider: string): ChatProviderTraits {
  return traitsByProvider[provider] ?? defaultTraits;
}
