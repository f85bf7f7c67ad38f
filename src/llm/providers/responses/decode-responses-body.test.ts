import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../errors/classify-http-error.js';
import { decodeResponsesBody } from './decode-responses-body.js';
import { catchError, context, decodeStream, loadWire, responseOf } from './responses-test-kit.js';

const bodyOf = (folder: string, name: string) => loadWire(folder, name).toString('utf8');

describe('decodeResponsesBody', () => {
  it('responses: a message output with usage', () => {
    expect(decodeResponsesBody(bodyOf('llama-server', 'responses.http'), context)).toMatchObject({
      content: 'hak cowardKing was Truth News Active Sar mandatedStockWorking CMS Andre seats wisely Krist',
      finishReason: 'stop',
      model: 'tiny.gguf',
      usage: { promptTokens: 22, completionTokens: 16, totalTokens: 38, cachedTokens: 21, latencyMs: 42 },
    });
  });

  it('responses-tools-required: a function_call output paired by call_id', () => {
    const response = decodeResponsesBody(bodyOf('llama-server', 'responses-tools-required.http'), context);
    expect(response).toMatchObject({
      finishReason: 'tool_calls',
      content: '',
      toolCalls: [
        {
          id: 'call_l19hq859TTLaPaalUKLXQpEWZDAp3pGh',
          name: 'get_weather',
          arguments: { city: 'Paris', unit: 'celsius' },
        },
      ],
      message: {
        content: null,
        tool_calls: [{ id: 'call_l19hq859TTLaPaalUKLXQpEWZDAp3pGh', type: 'function' }],
      },
    });
  });

  it('responses-tool-result-followup: a text reply after a tool result', () => {
    const response = decodeResponsesBody(
      bodyOf('llama-server', 'responses-tool-result-followup.http'),
      context,
    );
    expect(response).toMatchObject({
      content: 'guard patriotabe paw bureaucrats slee',
      finishReason: 'stop',
    });
  });

  it('gives the same response as the stream of the same answer', () => {
    const pairs: Array<[string, string]> = [
      ['openai-stream-parallel-calls.sse', 'openai-parallel-calls.json'],
      ['openai-stream-incomplete-call.sse', 'openai-incomplete-call.json'],
    ];
    for (const [streamName, bodyName] of pairs) {
      const streamed = responseOf(decodeStream(loadWire('responses', streamName)));
      const whole = decodeResponsesBody(bodyOf('responses', bodyName), context);
      expect(whole).toEqual(streamed);
    }
  });

  it('throws a failed response and an error body, classified', () => {
    const failed =
      '{"status":"failed","error":{"code":"server_error","message":"The model failed."},"output":[]}';
    expect(catchError(() => decodeResponsesBody(failed, context))).toMatchObject({
      code: 'LLM_SERVER_ERROR',
      message: 'The model failed.',
    });
    const overflow =
      '{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","code":"context_length_exceeded"}}';
    expect(catchError(() => decodeResponsesBody(overflow, context)).code).toBe('LLM_CONTEXT_OVERFLOW');
    expect(catchError(() => decodeResponsesBody('{"status":"fail', context)).code).toBe('LLM_BAD_RESPONSE');
  });

  it("classifies llama.cpp's refusal of previous_response_id", () => {
    const body = bodyOf('llama-server', 'error-responses-previous-response-id.http');
    const error = classifyHttpError(400, body);
    expect(error).toMatchObject({
      code: 'LLM_HTTP_ERROR',
      retryable: false,
      message: "llama.cpp does not support 'previous_response_id'.",
    });
  });
});
