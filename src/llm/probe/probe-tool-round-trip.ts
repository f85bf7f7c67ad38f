import { SpineError } from '../../core/spine-error.js';
import type { ChatMessage, ModelClient, ToolSpec } from '../../core/types.js';

export type ToolProbeResult =
  | { status: 'round-trip'; toolCallRepairs: number }
  | { status: 'no-tool-call'; content: string }
  | { status: 'cut-off'; maxTokens: number; content: string }
  | { status: 'failed'; code: string; message: string };

const probeMaxTokens = 512;

const echoTool: ToolSpec = {
  type: 'function',
  function: {
    name: 'echo',
    description: 'Returns the text it is given.',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    },
  },
};

/**
 * A trivial tool call, there and back: the model is asked to call `echo`, is given the result, and must answer.
 * A runner whose template drops tools, or a model that only writes prose, fails the first step; a runner
 * that rejects tool messages fails the second.
 */
export async function probeToolRoundTrip(
  client: ModelClient,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<ToolProbeResult> {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a tool-calling test. Always use the tools you are given.' },
    { role: 'user', content: 'Call the echo tool with the text "ping". Do not answer in prose.' },
  ];
  // Room for a model that thinks or talks before it calls; a cut answer is reported as cut, not as prose.
  const call = { messages, tools: [echoTool], maxTokens: probeMaxTokens, temperature: 0, ...options };
  try {
    const first = await client.respond(call);
    const echo = first.toolCalls.find((toolCall) => toolCall.name === 'echo');
    if (!echo && first.finishReason === 'length')
      return { status: 'cut-off', maxTokens: probeMaxTokens, content: first.content.slice(0, 200) };
    if (!echo) return { status: 'no-tool-call', content: first.content.slice(0, 200) };
    await client.respond({
      ...call,
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: first.content || null,
          tool_calls: [
            {
              id: echo.id,
              type: 'function',
              function: { name: 'echo', arguments: JSON.stringify(echo.arguments) },
            },
          ],
        },
        {
          role: 'tool',
          tool_call_id: echo.id,
          content: JSON.stringify({ ok: true, data: { text: 'ping' } }),
        },
      ],
    });
    return { status: 'round-trip', toolCallRepairs: first.repairs.length };
  } catch (error) {
    if (SpineError.is(error)) return { status: 'failed', code: error.code, message: error.message };
    throw error;
  }
}
