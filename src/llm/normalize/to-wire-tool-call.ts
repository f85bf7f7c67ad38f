import type { ToolCall, WireToolCall } from '../../core/types.js';

/**
 * A call as the runner sent it, for the assistant message a decoder assembles: the arguments text kept as it
 * came (a re-ask shows the model its own words), `""` sent back as `{}` (runners reject an empty string).
 */
export function toWireToolCallAsSent(call: { id: string; name: string; rawArguments: string }): WireToolCall {
  const text = call.rawArguments.trim() === '' ? '{}' : call.rawArguments;
  return { id: call.id, type: 'function', function: { name: call.name, arguments: text } };
}

/**
 * A settled call for the history: the runner's text when it already says exactly the settled arguments, else the
 * arguments written out (after a repair or a schema coercion, the history must hold what was run).
 */
export function toWireToolCall(call: ToolCall): WireToolCall {
  const canonical = JSON.stringify(call.arguments);
  const text = sameJson(call.rawArguments, canonical) ? call.rawArguments : canonical;
  return { id: call.id, type: 'function', function: { name: call.name, arguments: text } };
}

function sameJson(text: string, canonical: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === canonical;
  } catch {
    return false;
  }
}
