import { completion } from '../support/chat-wire.js';
import type { ScriptedResponse } from '../support/fake-runner.js';
import { ollamaAnswer, ollamaDone, ollamaLine, ollamaToolCallLine } from '../support/ollama-wire.js';
import {
  completedEvent,
  functionCallEvents,
  outputItems,
  outputTextDelta,
  reasoningDelta,
  responsesObject,
} from '../support/responses-wire.js';

// One answer — reasoning, a sentence, one tool call — as each dialect speaks it.

export const answer = {
  reasoning: 'Need the tool.',
  text: 'Checking.',
  call: { id: 'call_oslo', name: 'get_weather', arguments: '{"city":"Oslo"}' },
};

/** LM Studio style: reasoning in its own `reasoning` field, usage in a last chunk. */
export function chatAnswer(streamed: boolean): ScriptedResponse {
  const base = { id: 'chatcmpl-1', model: 'qwen3' };
  const toolCall = {
    id: answer.call.id,
    type: 'function',
    function: { name: answer.call.name, arguments: answer.call.arguments },
  };
  if (!streamed) {
    const body = completion(answer.text, { toolCalls: [toolCall] }) as {
      choices: Array<{ message: object }>;
    };
    const message = { ...body.choices[0]?.message, reasoning: answer.reasoning };
    return {
      body: {
        ...body,
        model: 'qwen3',
        choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
      },
    };
  }
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return {
    sse: [
      chunk({ role: 'assistant', reasoning: 'Need ' }),
      chunk({ reasoning: 'the tool.' }),
      chunk({ content: answer.text }),
      chunk({
        tool_calls: [{ index: 0, ...toolCall, function: { name: answer.call.name, arguments: '{"city":' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({}, 'tool_calls'),
      { ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 } },
    ],
  };
}

export function responsesAnswer(streamed: boolean): ScriptedResponse {
  const items = outputItems({
    reasoning: answer.reasoning,
    text: answer.text,
    calls: [{ callId: answer.call.id, name: answer.call.name, arguments: answer.call.arguments }],
  });
  if (!streamed) return { body: responsesObject(items) };
  return {
    sse: [
      reasoningDelta('Need '),
      reasoningDelta('the tool.'),
      outputTextDelta(answer.text),
      ...functionCallEvents(
        { callId: answer.call.id, name: answer.call.name, argumentPieces: ['{"city":', '"Oslo"}'] },
        2,
      ),
      completedEvent(responsesObject(items)),
    ],
    omitDone: true,
  };
}

/** Newer Ollama sends call ids; arguments are an object either way. */
export function ollamaNativeAnswer(streamed: boolean): ScriptedResponse {
  const call = { id: answer.call.id, name: answer.call.name, arguments: { city: 'Oslo' } };
  if (!streamed) {
    return {
      body: ollamaAnswer({
        content: answer.text,
        thinking: answer.reasoning,
        tool_calls: [{ id: call.id, function: { name: call.name, arguments: call.arguments } }],
      }),
    };
  }
  return {
    ndjson: [
      ollamaLine({ thinking: 'Need ' }),
      ollamaLine({ thinking: 'the tool.' }),
      ollamaLine({ content: answer.text }),
      ollamaToolCallLine([call]),
      ollamaDone(),
    ],
  };
}
