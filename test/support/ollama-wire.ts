/** Small builders for Ollama native `/api/chat` NDJSON lines, so tests read as the case they script. */

const base = { model: 'qwen3', created_at: '2025-06-01T10:00:00Z' };

/** A streamed line carrying content and/or thinking. */
export function ollamaLine(message: { content?: string; thinking?: string }): object {
  return { ...base, message: { role: 'assistant', content: '', ...message }, done: false };
}

/** A line with complete tool calls: arguments as JSON objects, ids only when given (older Ollama sends none). */
export function ollamaToolCallLine(
  calls: Array<{ name: string; arguments: Record<string, unknown>; id?: string }>,
): object {
  const toolCalls = calls.map((call, index) => ({
    ...(call.id ? { id: call.id } : {}),
    function: { index, name: call.name, arguments: call.arguments },
  }));
  return { ...base, message: { role: 'assistant', content: '', tool_calls: toolCalls }, done: false };
}

/** The final `done:true` object with counts and nanosecond durations. */
export function ollamaDone(
  extra: { done_reason?: string; prompt_eval_count?: number; eval_count?: number } = {},
): object {
  return {
    ...base,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    total_duration: 1_500_000_000,
    load_duration: 2_000_000,
    prompt_eval_count: 12,
    prompt_eval_duration: 300_000_000,
    eval_count: 7,
    eval_duration: 1_100_000_000,
    ...extra,
  };
}

/** A non-streamed answer: the final object with the whole message in it. */
export function ollamaAnswer(message: Record<string, unknown>, extra: Record<string, unknown> = {}): object {
  return { ...ollamaDone(), message: { role: 'assistant', content: '', ...message }, ...extra };
}
