import { inlineImageBytes } from './inline-image.js';
import { ollamaSamplingDefaults, type ProviderPreset } from './presets.js';

type Body = Record<string, unknown>;
type WireMessage = Record<string, unknown> & { role?: unknown };

/**
 * A Chat Completions body as the preset's runner accepts it: fields it rejects are removed or renamed, messages
 * take the shape it wants (RUNNER-QUIRKS §40–50, DECISIONS §7). Pure: the given body is never written to.
 */
export function shapeChatRequestBody(body: Body, preset: ProviderPreset): Body {
  const shaped: Body = { ...body };
  shapeTools(shaped, preset);
  shapeToolChoice(shaped, preset);
  shapeMaxTokens(shaped, preset);
  shapeSampling(shaped, preset);
  shapeStreamOptions(shaped, preset);
  if (Array.isArray(shaped.messages))
    shaped.messages = shapeMessages(shaped.messages as WireMessage[], preset);
  return shaped;
}

function hasTools(body: Body): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

function shapeTools(body: Body, preset: ProviderPreset): void {
  if (!hasTools(body)) {
    // An empty list is rejected by some servers, and both fields below are rejected without tools (§43).
    delete body.tools;
    delete body.parallel_tool_calls;
    return;
  }
  body.tools = (body.tools as unknown[]).map((tool) => shapeTool(tool, preset));
  // Not when one tool is named: that call is forced once.
  if (
    preset.parallelToolCallsByDefault &&
    body.parallel_tool_calls === undefined &&
    !isRecord(body.tool_choice)
  )
    body.parallel_tool_calls = true;
  if (!preset.parallelToolCalls || typeof body.parallel_tool_calls !== 'boolean')
    delete body.parallel_tool_calls;
}

function shapeTool(tool: unknown, preset: ProviderPreset): unknown {
  if (!isRecord(tool) || !isRecord(tool.function) || !('strict' in tool.function)) return tool;
  const { strict, ...rest } = tool.function;
  // Never `strict: null` (OpenAI expects a boolean), and none at all where the runner does not know it (§45).
  if (preset.strict && typeof strict === 'boolean') return tool;
  return { ...tool, function: rest };
}

function shapeToolChoice(body: Body, preset: ProviderPreset): void {
  const choice = body.tool_choice;
  if (choice === undefined) return;
  const unsupported =
    choice === null ||
    !hasTools(body) ||
    (choice === 'auto' && !preset.toolChoiceAuto) ||
    (choice === 'required' && !preset.toolChoiceRequired) ||
    (isRecord(choice) && !preset.toolChoiceNamed);
  // Forcing a call the runner cannot enforce is left to validation and re-asking instead (§42).
  if (unsupported) delete body.tool_choice;
}

function shapeMaxTokens(body: Body, preset: ProviderPreset): void {
  const value = body.max_tokens ?? body.max_completion_tokens;
  delete body.max_tokens;
  delete body.max_completion_tokens;
  if (value !== undefined && value !== null) body[preset.maxTokensField] = value;
}

function shapeSampling(body: Body, preset: ProviderPreset): void {
  if (!preset.samplingParameters) {
    delete body.temperature;
    delete body.top_p;
    return;
  }
  if (!preset.sendSamplingDefaults) return;
  body.temperature ??= ollamaSamplingDefaults.temperature;
  body.top_p ??= ollamaSamplingDefaults.top_p;
}

function shapeStreamOptions(body: Body, preset: ProviderPreset): void {
  if (body.stream !== true || !preset.streamOptions) delete body.stream_options;
  else body.stream_options ??= { include_usage: true };
}

function shapeMessages(messages: WireMessage[], preset: ProviderPreset): WireMessage[] {
  const merged = preset.systemMessageMerge ? mergeSystemMessages(messages) : messages;
  const toolNames = preset.toolMessageName ? collectToolNames(merged) : undefined;
  return merged.map((message) => {
    if (preset.inlineImagesOnly) requireInlineImages(message);
    if (message.role === 'assistant') return shapeAssistant(message, preset);
    if (message.role === 'tool' && toolNames) return nameToolMessage(message, toolNames);
    return message;
  });
}

function requireInlineImages(message: WireMessage): void {
  if (!Array.isArray(message.content)) return;
  for (const part of message.content as unknown[]) {
    if (isRecord(part) && part.type === 'image_url' && isRecord(part.image_url))
      inlineImageBytes(String(part.image_url.url));
  }
}

/** One system message at index 0 holding every system text in order (§47). */
function mergeSystemMessages(messages: WireMessage[]): WireMessage[] {
  const systems = messages.filter((message) => message.role === 'system');
  if (systems.length === 0 || (systems.length === 1 && messages[0] === systems[0])) return messages;
  const content = systems.map((message) => textOf(message.content)).join('\n\n');
  return [{ role: 'system', content }, ...messages.filter((message) => message.role !== 'system')];
}

function shapeAssistant(message: WireMessage, preset: ProviderPreset): WireMessage {
  const calls =
    Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? message.tool_calls : null;
  const { reasoning_content: reasoning, tool_calls: _calls, ...rest } = message;
  const shaped: WireMessage = rest;
  if (calls) {
    const content = message.content;
    shaped.content =
      content === null || content === undefined || content === ''
        ? preset.assistantContentWithToolCalls
        : content;
    shaped.tool_calls = calls.map(fillEmptyArguments);
    // DECISIONS §7: DeepSeek thinking mode rejects a tool-call turn whose reasoning is missing.
    if (preset.sendReasoningBack === 'tool-calls')
      shaped.reasoning_content = typeof reasoning === 'string' ? reasoning : '';
  } else {
    // Without tool calls, null content is rejected by OpenAI, LM Studio and Ollama /v1 (§40).
    shaped.content = message.content ?? '';
  }
  return shaped;
}

function fillEmptyArguments(call: unknown): unknown {
  if (!isRecord(call) || !isRecord(call.function)) return call;
  const argumentsText = call.function.arguments;
  const empty =
    argumentsText === undefined ||
    argumentsText === null ||
    (typeof argumentsText === 'string' && argumentsText.trim() === '');
  return empty ? { ...call, function: { ...call.function, arguments: '{}' } } : call;
}

function collectToolNames(messages: WireMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls) {
      if (isRecord(call) && typeof call.id === 'string' && isRecord(call.function)) {
        if (typeof call.function.name === 'string') names.set(call.id, call.function.name);
      }
    }
  }
  return names;
}

function nameToolMessage(message: WireMessage, toolNames: Map<string, string>): WireMessage {
  if (typeof message.name === 'string') return message;
  const name = typeof message.tool_call_id === 'string' ? toolNames.get(message.tool_call_id) : undefined;
  return name === undefined ? message : { ...message, name };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
