/**
 * Small builders for Responses API wire objects (RUNNER-QUIRKS §65): named SSE events as the runner writes
 * them (`event: TYPE` + `data: {type: TYPE, …}`), to be played with `sse: [...]` and `omitDone: true`.
 */

let sequence = 0;

/** One named SSE event, rendered raw. */
export function responsesEvent(type: string, fields: Record<string, unknown> = {}): string {
  sequence += 1;
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: sequence })}\n\n`;
}

export function outputTextDelta(delta: string, outputIndex = 1): string {
  return responsesEvent('response.output_text.delta', {
    item_id: 'msg_1',
    output_index: outputIndex,
    content_index: 0,
    delta,
  });
}

export function reasoningDelta(delta: string): string {
  return responsesEvent('response.reasoning_text.delta', {
    item_id: 'rs_1',
    output_index: 0,
    content_index: 0,
    delta,
  });
}

/** A function call streamed as `output_item.added`, argument deltas, `.done` and `output_item.done`. */
export function functionCallEvents(
  call: { callId: string; name: string; argumentPieces: string[] },
  outputIndex: number,
): string[] {
  const itemId = `fc_${outputIndex}`;
  const added = { id: itemId, type: 'function_call', call_id: call.callId, name: call.name, arguments: '' };
  const whole = call.argumentPieces.join('');
  return [
    responsesEvent('response.output_item.added', { output_index: outputIndex, item: added }),
    ...call.argumentPieces.map((delta) =>
      responsesEvent('response.function_call_arguments.delta', {
        item_id: itemId,
        output_index: outputIndex,
        delta,
      }),
    ),
    responsesEvent('response.function_call_arguments.done', {
      item_id: itemId,
      output_index: outputIndex,
      arguments: whole,
    }),
    responsesEvent('response.output_item.done', {
      output_index: outputIndex,
      item: { ...added, arguments: whole, status: 'completed' },
    }),
  ];
}

/** A whole Responses object (the non-streamed body, or the `response` of a terminal event). */
export function responsesObject(
  output: object[],
  extra: { status?: string; usage?: object; model?: string } = {},
): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    model: extra.model ?? 'qwen3',
    store: false,
    status: extra.status ?? 'completed',
    output,
    usage: extra.usage ?? { input_tokens: 12, output_tokens: 7, total_tokens: 19 },
  };
}

export function completedEvent(response: Record<string, unknown>): string {
  return responsesEvent('response.completed', { response });
}

/** Output items for a reasoning text, a message, and function calls, in that order. */
export function outputItems(parts: {
  reasoning?: string;
  text?: string;
  calls?: Array<{ callId: string; name: string; arguments: string }>;
}): object[] {
  const items: object[] = [];
  if (parts.reasoning !== undefined) {
    items.push({
      id: 'rs_1',
      type: 'reasoning',
      content: [{ type: 'reasoning_text', text: parts.reasoning }],
    });
  }
  if (parts.text !== undefined) {
    items.push({
      id: 'msg_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: parts.text, annotations: [] }],
    });
  }
  for (const [index, call] of (parts.calls ?? []).entries()) {
    items.push({
      id: `fc_${index}`,
      type: 'function_call',
      status: 'completed',
      call_id: call.callId,
      name: call.name,
      arguments: call.arguments,
    });
  }
  return items;
}
