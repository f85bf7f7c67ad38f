import type {
  AssistantMessage,
  FinishReason,
  IncompleteToolCall,
  ModelResponse,
  Repair,
  ToolCall,
  Usage,
} from '../core/types.js';

/** One scripted answer, in the few words a test needs. */
export interface ScriptedAnswer {
  text?: string;
  reasoning?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments?: Record<string, unknown> }>;
  incompleteToolCalls?: IncompleteToolCall[];
  finishReason?: FinishReason;
  usage?: Partial<Usage>;
  repairs?: Repair[];
  /** Extra provider fields on the assistant message (e.g. `reasoning_content`). */
  messageFields?: Partial<AssistantMessage>;
}

/**
 * A complete ModelResponse from a scripted answer, shaped as the real client returns it (the assistant
 * message carries `tool_calls` with string arguments; call ids default to `call_<turn>_<index>`).
 */
export function createScriptedResponse(answer: ScriptedAnswer, turn = 0): ModelResponse {
  const toolCalls: ToolCall[] = (answer.toolCalls ?? []).map((call, index) => {
    const args = call.arguments ?? {};
    return {
      id: call.id ?? `call_${turn}_${index}`,
      name: call.name,
      arguments: args,
      rawArguments: JSON.stringify(args),
    };
  });
  const message: AssistantMessage = {
    role: 'assistant',
    content: answer.text ?? (toolCalls.length > 0 ? null : ''),
  };
  if (toolCalls.length > 0) {
    message.tool_calls = toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.rawArguments },
    }));
  }
  Object.assign(message, answer.messageFields);
  return {
    content: answer.text ?? '',
    toolCalls,
    incompleteToolCalls: answer.incompleteToolCalls ?? [],
    reasoning: answer.reasoning ?? null,
    usage: { promptTokens: null, completionTokens: null, totalTokens: null, latencyMs: 0, ...answer.usage },
    finishReason: answer.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    model: 'scripted',
    repairs: answer.repairs ?? [],
    message,
    raw: null,
  };
}
