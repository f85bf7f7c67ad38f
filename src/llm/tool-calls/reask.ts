import type { AssistantMessage, ChatMessage, ToolFailure, ToolSpec } from '../../core/types.js';
import type { ToolCallProblem } from './repair/tool-call-problem.js';

export interface BuildReaskOptions {
  /** The tools that were offered, to list what is valid. */
  tools: readonly ToolSpec[];
}

/**
 * The messages to append after a response whose tool calls were rejected (DECISIONS.md §6): the model's
 * assistant message as it was, then a `tool` message with a JSON ToolResult error for each of its structured
 * calls, and one `user` message for calls that came as text (or that no structured call matches). When the
 * message had several calls, none was run, and the model is asked for the whole message again.
 */
export function buildReaskMessages(
  assistantMessage: AssistantMessage,
  problems: readonly ToolCallProblem[],
  options: BuildReaskOptions,
): ChatMessage[] {
  const structuredCalls = assistantMessage.tool_calls ?? [];
  const structuredIds = new Set(structuredCalls.map((call) => call.id));
  const answered = new Map<string, ToolCallProblem>();
  const unanswered: ToolCallProblem[] = [];
  for (const problem of problems) {
    const id = problem.toolCallId;
    if (!problem.fromText && id !== undefined && structuredIds.has(id) && !answered.has(id))
      answered.set(id, problem);
    else unanswered.push(problem);
  }
  const callCount = structuredCalls.length + unanswered.filter((problem) => problem.fromText).length;
  const wholeMessage = callCount > 1;
  const rejectedNames = problems.map((problem) => problem.toolName ?? `call ${problem.index ?? '?'}`);
  // Every structured call needs an answer, or the next request is refused for a dangling tool_call_id.
  const toolMessages: ChatMessage[] = structuredCalls.map((call) => {
    const problem = answered.get(call.id);
    const result = problem
      ? describeProblemResult(problem, options.tools, wholeMessage)
      : describeSkippedResult(rejectedNames);
    return { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) };
  });
  const messages: ChatMessage[] = [assistantMessage, ...toolMessages];
  if (unanswered.length > 0) {
    messages.push({ role: 'user', content: describeUserReask(unanswered, options.tools, wholeMessage) });
  }
  return messages;
}

/** The ToolResult error the model reads for one rejected call. */
export function describeProblemResult(
  problem: ToolCallProblem,
  tools: readonly ToolSpec[],
  wholeMessage: boolean,
): ToolFailure {
  const remedy = describeRemedy(problem, tools);
  const again = wholeMessage ? ` ${resendSentence}` : '';
  return {
    ok: false,
    error: {
      code: problem.code,
      message: `${capitalize(problem.message)}. ${remedy.sentence}${again}`,
      details: {
        ...problem.details,
        ...remedy.details,
        ...(wholeMessage ? { resend: 'whole-message' } : {}),
      },
    },
  };
}

const resendSentence =
  'None of the tool calls in your message was run: send the whole message again, with every tool call, corrected.';

function describeSkippedResult(rejectedNames: readonly string[]): ToolFailure {
  return {
    ok: false,
    error: {
      code: 'E_PRECONDITION_FAILED',
      message: `Not run, because another call in the same message was rejected (${rejectedNames.join(', ')}). ${resendSentence}`,
      details: { reason: 'sibling-call-rejected', rejected: [...rejectedNames], resend: 'whole-message' },
    },
  };
}

function describeUserReask(
  problems: readonly ToolCallProblem[],
  tools: readonly ToolSpec[],
  wholeMessage: boolean,
): string {
  const lines = problems.map((problem) => {
    const remedy = describeRemedy(problem, tools);
    return `- ${capitalize(problem.message)} (${problem.code}). ${remedy.sentence}`;
  });
  const heading =
    problems.length === 1 ? 'Your tool call could not be used:' : 'Your tool calls could not be used:';
  const closing =
    wholeMessage || problems.length > 1 ? resendSentence : 'Nothing was run: make the call again, corrected.';
  const names = toolNames(tools);
  return [heading, ...lines, `Valid tools: ${names.join(', ') || '(none)'}.`, closing].join('\n');
}

function describeRemedy(
  problem: ToolCallProblem,
  tools: readonly ToolSpec[],
): { sentence: string; details: Record<string, unknown> } {
  const tool = tools.find((candidate) => candidate.function.name === problem.toolName);
  if (problem.code === 'E_UNKNOWN_TOOL' || tool === undefined) {
    const validTools = toolNames(tools);
    return {
      sentence: `Call one of the valid tools: ${validTools.join(', ') || '(none)'}.`,
      details: { validTools },
    };
  }
  const schema = tool.function.parameters ?? {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const properties = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  const parts = [`Arguments for '${tool.function.name}' must be a JSON object matching its schema`];
  if (required.length > 0) parts.push(`required properties: ${required.join(', ')}`);
  if (properties.length > 0) parts.push(`allowed properties: ${properties.join(', ')}`);
  return { sentence: `${parts.join('; ')}.`, details: { required, properties } };
}

function toolNames(tools: readonly ToolSpec[]): string[] {
  return tools.map((tool) => tool.function.name);
}

function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
