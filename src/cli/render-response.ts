import type { ModelResponse, StreamEvent } from '../core/types.js';

/** The ModelResponse as printed by `--json`: everything but the raw wire object and the history message. */
export function responseToJson(response: ModelResponse): Record<string, unknown> {
  return {
    content: response.content,
    toolCalls: response.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
    incompleteToolCalls: response.incompleteToolCalls,
    reasoning: response.reasoning,
    finishReason: response.finishReason,
    usage: response.usage,
    model: response.model,
    repairs: response.repairs,
  };
}

/** One stream event as a JSON line; the `done` event carries the printable response. */
export function eventToJson(event: StreamEvent): Record<string, unknown> {
  return event.type === 'done' ? { type: 'done', response: responseToJson(event.response) } : { ...event };
}

/** A short human line per tool call: `→ name {"arg":1}`. */
export function describeToolCall(name: string, args: unknown): string {
  return `→ ${name} ${JSON.stringify(args)}`;
}
