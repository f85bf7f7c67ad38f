import { classifyHttpError } from '../../errors/classify-http-error.js';
import type { ProviderAdapter } from '../provider-adapter.js';
import { buildChatRequest } from './build-chat-request.js';
import { ChatStreamDecoder } from './chat-stream-decoder.js';
import { decodeChatCompletion } from './decode-chat-completion.js';

/** OpenAI Chat Completions (`POST …/chat/completions`), spoken by OpenAI, Azure and most local runners. */
export const openAiChatAdapter: ProviderAdapter = {
  buildRequest: (request, options) =>
    buildChatRequest(options.endpoint, request, options.stream, options.leaveOut),
  createStreamDecoder: (context) => new ChatStreamDecoder(context),
  decodeResponse: (bodyText, context) =>
    decodeChatCompletion(bodyText, { latencyMs: context.now() - context.startedAt }),
  classifyHttpError,
};
