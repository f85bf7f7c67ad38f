import type { WireToolCall } from '../../core/types.js';

/**
 * The one rule for writing a call back as a wire `tool_calls` entry, for the assistant message a decoder assembles
 * and the history alike: the runner's own arguments text when it says exactly the settled arguments (a re-ask
 * shows the model its own words), else the settled arguments written out (after a repair or a schema coercion the
 * history must hold what was run); an empty text is sent back as `{}` (runners reject an empty string).
 */
export function toWireToolCall(call: {
  id: string;
  name: string;
  rawArguments: string;
  arguments?: Record<string, unknown>;
}): WireToolCall {
  const sent = call.rawArguments.trim() === '' ? '{}' : call.rawArguments;
  const text =
    call.arguments === undefined || sameJson(sent, call.arguments) ? sent : JSON.stringify(call.arguments);
  return { id: call.id, type: 'function', function: { name: call.name, arguments: text } };
}

function sameJson(text: string, value: Record<string, unknown>): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
