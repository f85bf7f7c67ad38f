/** Small builders for OpenAI chat wire objects, so tests read as the case they script. */

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'fake-model' };

export function textChunk(content: string): object {
  return { ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] };
}

export function finishChunk(finishReason = 'stop'): object {
  return { ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] };
}

export function usageChunk(promptTokens: number, completionTokens: number): object {
  return {
    ...base,
    choices: [],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

export function toolCallChunk(
  index: number,
  call: { id?: string; name?: string; arguments: string },
): object {
  const fn =
    call.name === undefined ? { arguments: call.arguments } : { name: call.name, arguments: call.arguments };
  const delta = { index, ...(call.id ? { id: call.id, type: 'function' } : {}), function: fn };
  return { ...base, choices: [{ index: 0, delta: { tool_calls: [delta] }, finish_reason: null }] };
}

/** The SSE events of a plain streamed answer: the text in pieces, then a finish chunk. */
export function textStream(pieces: string[], finishReason = 'stop'): object[] {
  return [...pieces.map(textChunk), finishChunk(finishReason)];
}

/** A non-streamed chat completion body. */
export function completion(
  content: string | null,
  extra: { toolCalls?: object[]; finishReason?: string } = {},
): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'fake-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, ...(extra.toolCalls ? { tool_calls: extra.toolCalls } : {}) },
        finish_reason: extra.finishReason ?? (extra.toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
}
