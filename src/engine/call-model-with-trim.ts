import { SpineError } from '../core/spine-error.js';
import type { ChatMessage, ModelClient, ModelRequest, ModelResponse, ToolSpec } from '../core/types.js';
import type { EngineEvent } from './engine-events.js';
import type { HistoryWindow, MessageHistory, OverflowNumbers } from './history.js';
import { streamModelResponse } from './stream-model-response.js';

export interface ModelCallOptions {
  llm: ModelClient;
  history: MessageHistory;
  tools: ToolSpec[];
  base: Omit<ModelRequest, 'messages' | 'tools' | 'signal'>;
  signal: AbortSignal;
  runId: string;
  turnId: string;
  emit: (event: EngineEvent) => void;
}

export interface ModelCallOutcome {
  response?: ModelResponse;
  error?: unknown;
  /** The request as last sent (the retried one after an overflow). */
  sent: { messages: ChatMessage[]; tools: ToolSpec[] };
}

/**
 * One turn's model call: the history's window is sent, deltas become engine events, and a context
 * overflow from the runner gets exactly one harder trim and retry. Reported prompt tokens calibrate the
 * history's estimate.
 */
export async function callModelWithTrim(options: ModelCallOptions): Promise<ModelCallOutcome> {
  let window = sendableWindow(options, options.history.window(), 'budget');
  const tooBig = options.history.overflowBeforeSending();
  if (tooBig !== undefined) {
    // Said before sending, with the figures: the runner's own overflow error names neither the tools nor the budget.
    const error = new SpineError({
      code: 'LLM_CONTEXT_OVERFLOW',
      message: `the request does not fit the model's context: about ${tooBig.estimatedTokens} prompt tokens (${tooBig.toolTokens} of them tool definitions) against ${tooBig.budget} available (a ${tooBig.contextLength}-token context, less room for the answer); nothing was sent. Use a larger context, fewer tools (without --write only the read tools are offered), a smaller --max-tokens, or a shorter prompt`,
      details: { ...tooBig, sent: false },
    });
    return { error, sent: { messages: window.messages, tools: options.tools } };
  }
  let retried = false;
  for (;;) {
    const sent = { messages: window.messages, tools: options.tools };
    try {
      const response = await callOnce(options, window);
      options.history.calibrate(response.usage.promptTokens, window.rawTokens);
      return { response, sent };
    } catch (error) {
      if (retried || !SpineError.is(error) || error.code !== 'LLM_CONTEXT_OVERFLOW') return { error, sent };
      retried = true;
      const dropped = options.history.trimAfterOverflow(readOverflowNumbers(error), window.rawTokens);
      if (dropped === 0) return { error, sent };
      window = sendableWindow(options, { ...options.history.window(), dropped }, 'overflow');
    }
  }
}

async function callOnce(options: ModelCallOptions, window: HistoryWindow): Promise<ModelResponse> {
  const { runId, turnId, emit } = options;
  emit({
    type: 'model-request',
    runId,
    turnId,
    messageCount: window.messages.length,
    toolCount: options.tools.length,
    estimatedTokens: window.estimatedTokens,
  });
  const request: ModelRequest = { ...options.base, messages: window.messages, signal: options.signal };
  if (options.tools.length > 0) request.tools = options.tools;
  else delete request.toolChoice;
  const calls = new Map<number, { name: string | undefined; chars: number }>();
  return streamModelResponse(options.llm, request, (event) => {
    if (event.type === 'text-delta') emit({ type: 'text-delta', runId, turnId, text: event.text });
    else if (event.type === 'tool-call-delta') {
      // Writing a call can take seconds on a CPU; the progress is what a terminal shows meanwhile.
      const call = calls.get(event.index) ?? { name: undefined, chars: 0 };
      call.name = event.name ?? call.name;
      call.chars += event.argumentsDelta.length;
      calls.set(event.index, call);
      emit({ type: 'tool-call-progress', runId, turnId, name: call.name, argumentChars: call.chars });
    } else if (event.type === 'reasoning-delta')
      emit({ type: 'reasoning-delta', runId, turnId, text: event.text });
    else if (event.type === 'retry') emit({ type: 'retry', runId, turnId, retry: event.retry });
  });
}

function sendableWindow(
  options: ModelCallOptions,
  window: HistoryWindow,
  reason: 'budget' | 'overflow',
): HistoryWindow {
  if (window.dropped > 0) {
    options.emit({
      type: 'history-trimmed',
      runId: options.runId,
      turnId: options.turnId,
      droppedMessages: window.dropped,
      keptMessages: window.messages.length,
      estimatedTokens: window.estimatedTokens,
      reason,
    });
  }
  return window;
}

/** Window size and prompt size, under whichever names the client put them (llama.cpp, vLLM, OpenAI). */
function readOverflowNumbers(error: SpineError): OverflowNumbers {
  const details = error.details;
  const pick = (...keys: string[]): number | undefined => {
    for (const key of keys) {
      const value = details[key];
      if (typeof value === 'number' && Number.isFinite(value)) return value;
    }
    return undefined;
  };
  return {
    contextLength: pick('contextTokens', 'contextLength', 'n_ctx', 'maxContextTokens'),
    promptTokens: pick('promptTokens', 'n_prompt_tokens', 'requestedTokens', 'messageTokens'),
  };
}
