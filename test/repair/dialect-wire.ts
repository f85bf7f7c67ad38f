/** Small builders for Ollama native and Responses API answers, so repair tests read as their case. */

const ollamaEnd = { model: 'm', done: true, done_reason: 'stop', prompt_eval_count: 3, eval_count: 2 };

/** A non-streamed Ollama `/api/chat` body. */
export function ollamaBody(message: { content?: string; tool_calls?: object[] }): object {
  return { ...ollamaEnd, message: { role: 'assistant', content: '', ...message } };
}

/** Streamed Ollama lines: each piece of text (or tool-call batch) a line, then the `done:true` line. */
export function ollamaLines(pieces: Array<string | object[]>): object[] {
  const lines = pieces.map((piece) => ({
    model: 'm',
    done: false,
    message:
      typeof piece === 'string'
        ? { role: 'assistant', content: piece }
        : { role: 'assistant', content: '', tool_calls: piece },
  }));
  return [...lines, { ...ollamaEnd, message: { role: 'assistant', content: '' } }];
}

interface ResponsesCall {
  callId: string;
  name: string;
  arguments: string;
}

function responseObject(text: string, calls: ResponsesCall[]): object {
  const output: object[] = [];
  if (text !== '')
    output.push({
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  output.push(...calls.map(functionCallItem));
  return {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'm',
    output,
    usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
  };
}

function functionCallItem(call: ResponsesCall, index: number): object {
  return {
    type: 'function_call',
    id: `fc_${index}`,
    call_id: call.callId,
    name: call.name,
    arguments: call.arguments,
    status: 'completed',
  };
}

/** A non-streamed `/v1/responses` body. */
export function responsesBody(text: string, calls: ResponsesCall[] = []): object {
  return responseObject(text, calls);
}

/** The SSE events of a streamed Responses answer: text deltas, then each call's item and arguments. */
export function responsesEvents(pieces: string[], calls: ResponsesCall[] = []): object[] {
  const events: object[] = pieces.map((delta) => ({
    type: 'response.output_text.delta',
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta,
  }));
  calls.forEach((call, index) => {
    const item = functionCallItem(call, index);
    const outputIndex = index + 1;
    const itemId = `fc_${index}`;
    events.push(
      { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, arguments: '' } },
      {
        type: 'response.function_call_arguments.delta',
        item_id: itemId,
        output_index: outputIndex,
        delta: call.arguments,
      },
      { type: 'response.output_item.done', output_index: outputIndex, item },
    );
  });
  events.push({ type: 'response.completed', response: responseObject(pieces.join(''), calls) });
  return events;
}
