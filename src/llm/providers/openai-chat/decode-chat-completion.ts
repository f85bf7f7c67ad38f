import { SpineError } from '../../../core/spine-error.js';
import type { ModelResponse } from '../../../core/types.js';
import { classifyErrorBody } from '../../errors/classify-error-body.js';
import { ThinkSplitter } from '../../normalize/think-splitter.js';
import type { RawWireToolCall } from '../../tool-calls/normalize-tool-calls.js';
import { assembleChatResponse } from './assemble-chat-response.js';
import {
  isErrorObject,
  isRecord,
  readModel,
  readPrimaryChoice,
  readReasoningField,
  type WireRecord,
} from './chat-chunk.js';

const maxQuotedBody = 500;

/**
 * A non-streamed Chat Completions body → ModelResponse. Leading blank lines are tolerated (DeepSeek sends
 * them as keep-alives while it holds the request, RUNNER-QUIRKS §21; JSON.parse skips them). A 200 whose body is
 * an error object is that error (§57). A body that is not a completion is LLM_BAD_RESPONSE, retryable: spec 004
 * retries an unparseable answer with linear backoff.
 */
export function decodeChatCompletion(bodyText: string, meta: { latencyMs: number }): ModelResponse {
  const body = parseBody(bodyText);
  if (isErrorObject(body)) throw classifyErrorBody(body);
  const choice = readPrimaryChoice(body.choices);
  const message = choice?.message;
  if (choice === undefined || !isRecord(message))
    throw badBody('the response has no choices[0].message', bodyText);
  const reasoning = readReasoningField(message);
  const splitter = new ThinkSplitter();
  if (typeof message.content === 'string') splitter.push(message.content);
  splitter.flush();
  return assembleChatResponse({
    splitter,
    fieldReasoning: reasoning?.text ?? '',
    hasReasoningContent: reasoning?.field === 'reasoning_content',
    rawCalls: readToolCalls(message),
    wireFinishReason: choice.finish_reason,
    wireUsage: body.usage,
    timings: body.timings,
    model: readModel(body) ?? null,
    raw: body,
    latencyMs: meta.latencyMs,
  });
}

function parseBody(bodyText: string): WireRecord {
  let value: unknown;
  try {
    value = JSON.parse(bodyText);
  } catch (error) {
    throw badBody(
      bodyText.trim() === '' ? 'the response body is empty' : 'the response body is not JSON',
      bodyText,
      error,
    );
  }
  if (!isRecord(value)) throw badBody('the response body is not a JSON object', bodyText);
  return value;
}

function readToolCalls(message: WireRecord): RawWireToolCall[] {
  const calls: RawWireToolCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) if (isRecord(call)) calls.push(readToolCall(call));
  } else if (isRecord(message.function_call)) calls.push(readToolCall({ function: message.function_call }));
  return calls;
}

// `{id, function: {name, arguments}}`; a flat `{name, arguments}` is read too (the repair pipeline says more).
function readToolCall(call: WireRecord): RawWireToolCall {
  const fn = isRecord(call.function) ? call.function : call;
  return {
    id: typeof call.id === 'string' && call.id !== '' ? call.id : undefined,
    name: typeof fn.name === 'string' ? fn.name : '',
    arguments: fn.arguments,
    // The whole call, so the repair step can read (and record) flat calls and a `parameters` key.
    wire: call,
  };
}

function badBody(message: string, bodyText: string, cause?: unknown): SpineError {
  const quoted = bodyText.length > maxQuotedBody ? `${bodyText.slice(0, maxQuotedBody)}…` : bodyText;
  return new SpineError({
    code: 'LLM_BAD_RESPONSE',
    message,
    retryable: true,
    details: { body: quoted },
    cause,
  });
}
