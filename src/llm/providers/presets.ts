import { type ToolCallFormat, toolCallFormats } from '../tool-calls/text-tool-calls/tool-call-formats.js';
/**
 * Provider presets: per runner, a small table of what its Chat Completions endpoint accepts, so requests never
 * carry a field the runner rejects (RUNNER-QUIRKS §39–50). A model's `quirks:` in the config override single
 * entries; `resolvePreset` applies the model-name rules first and the quirks last.
 */

export const providerNames = [
  'openai',
  'azure',
  'deepseek',
  'ollama',
  'lmstudio',
  'llamacpp',
  'vllm',
  'openai-compatible',
] as const;
export type ProviderName = (typeof providerNames)[number];

export const apiTypes = ['chat_completions', 'responses', 'ollama'] as const;
export type ApiType = (typeof apiTypes)[number];

export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';
export type ReasoningField = 'reasoning_content' | 'reasoning' | 'thinking';

export interface ProviderPreset {
  name: ProviderName;
  /** Used when neither `api_type` nor the endpoint URL says which API to speak. */
  defaultApiType: ApiType;
  /** `authorization: Bearer KEY`, Azure's `api-key: KEY`, or no key at all. */
  authHeader: 'authorization' | 'api-key' | 'none';
  /** Environment variable read for the key when the config names none (only official hosts have one). */
  apiKeyEnv: string | null;
  /** `stream_options: { include_usage: true }` on streamed requests (§44). */
  streamOptions: boolean;
  /** `parallel_tool_calls` is accepted (it is still sent only with tools, §43). */
  parallelToolCalls: boolean;
  /**
   * `parallel_tool_calls: true` is sent with tools when the caller did not say (§32: llama-server's grammar
   * lets the model write one call unless asked for more).
   */
  parallelToolCallsByDefault: boolean;
  /** Which field carries the output cap (§49). */
  maxTokensField: MaxTokensField;
  /** `tool_choice: "auto"` is accepted (vLLM wants server flags for it; leaving it out means the same). */
  toolChoiceAuto: boolean;
  /** `tool_choice: "required"` is accepted (§42). */
  toolChoiceRequired: boolean;
  /** `tool_choice: { type: "function", … }` is accepted (§42). */
  toolChoiceNamed: boolean;
  /** `strict` in function definitions is accepted (§45). */
  strict: boolean;
  /** Where the runner puts reasoning in its answers (§35); null when it has none of its own. */
  reasoningField: ReasoningField | null;
  /** DECISIONS §7: `tool-calls` sends `reasoning_content` back on assistant messages with tool calls. */
  sendReasoningBack: 'tool-calls' | 'never';
  /** Assistant `content` when the message carries tool calls (§40). */
  assistantContentWithToolCalls: null | '';
  /** All system messages merged into one at index 0 (§47: Qwen templates reject any other layout). */
  systemMessageMerge: boolean;
  /** `name` on tool messages, looked up from the call they answer (§41: Ollama wants it). */
  toolMessageName: boolean;
  /** Send explicit sampling values when the caller gave none (§50: Ollama /v1 would use 1.0). */
  sendSamplingDefaults: boolean;
  /** Images only as `data:` URLs; a remote one is refused before the request (§52: Ollama /v1). */
  inlineImagesOnly: boolean;
  /** `temperature` / `top_p` are accepted (OpenAI reasoning models reject them). */
  samplingParameters: boolean;
  /** Which tool-call family is read from text (`auto`: every one); `quirks.tool_call_format` pins one. */
  toolCallFormat: ToolCallFormat;
}

const openAiLike: ProviderPreset = {
  name: 'openai',
  defaultApiType: 'chat_completions',
  authHeader: 'authorization',
  apiKeyEnv: 'OPENAI_API_KEY',
  streamOptions: true,
  parallelToolCalls: true,
  parallelToolCallsByDefault: false,
  maxTokensField: 'max_tokens',
  toolChoiceAuto: true,
  toolChoiceRequired: true,
  toolChoiceNamed: true,
  strict: true,
  reasoningField: null,
  sendReasoningBack: 'never',
  assistantContentWithToolCalls: null,
  systemMessageMerge: false,
  toolMessageName: false,
  sendSamplingDefaults: false,
  inlineImagesOnly: false,
  samplingParameters: true,
  toolCallFormat: 'auto',
};

const localRunner: ProviderPreset = {
  ...openAiLike,
  name: 'openai-compatible',
  apiKeyEnv: null,
  strict: false,
  reasoningField: 'reasoning_content',
  systemMessageMerge: true,
};

export const providerPresets: Readonly<Record<ProviderName, ProviderPreset>> = {
  openai: openAiLike,
  azure: { ...openAiLike, name: 'azure', authHeader: 'api-key', apiKeyEnv: 'AZURE_OPENAI_API_KEY' },
  deepseek: {
    ...openAiLike,
    name: 'deepseek',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    strict: false,
    reasoningField: 'reasoning_content',
    sendReasoningBack: 'tool-calls',
  },
  ollama: {
    ...localRunner,
    name: 'ollama',
    defaultApiType: 'ollama',
    authHeader: 'none',
    streamOptions: true,
    parallelToolCalls: false,
    toolChoiceRequired: false,
    toolChoiceNamed: false,
    reasoningField: 'reasoning',
    toolMessageName: true,
    sendSamplingDefaults: true,
    inlineImagesOnly: true,
  },
  lmstudio: {
    ...localRunner,
    name: 'lmstudio',
    reasoningField: 'reasoning',
    assistantContentWithToolCalls: '',
  },
  llamacpp: { ...localRunner, name: 'llamacpp', parallelToolCallsByDefault: true },
  vllm: {
    ...localRunner,
    name: 'vllm',
    toolChoiceAuto: false,
    toolChoiceRequired: false,
    toolChoiceNamed: false,
  },
  'openai-compatible': localRunner,
};

/** Ollama's own defaults, sent explicitly because its /v1 shim replaces absent values with 1.0 (§50). */
export const ollamaSamplingDefaults = { temperature: 0.8, top_p: 0.9 } as const;

export function isProviderName(value: string): value is ProviderName {
  return (providerNames as readonly string[]).includes(value);
}

/**
 * OpenAI's reasoning models (o-series, gpt-5 family) take `max_completion_tokens` and no sampling values;
 * o-series also rejects `parallel_tool_calls` (§43, §49). Deployment names on Azure may hide the model: set
 * the quirks explicitly there.
 */
export function isOpenAiReasoningModel(model: string): boolean {
  const name = model.toLowerCase().replace(/^.*\//, '');
  return /^o\d/.test(name) || /^gpt-5/.test(name);
}

/** The preset for one provider and model, with the model-name rules and then the config's quirks applied. */
export function resolvePreset(
  provider: ProviderName,
  options: { model?: string; quirks?: Partial<ProviderQuirks> } = {},
): ProviderPreset {
  let preset = providerPresets[provider];
  const official = provider === 'openai' || provider === 'azure';
  if (official && options.model !== undefined && isOpenAiReasoningModel(options.model)) {
    preset = { ...preset, maxTokensField: 'max_completion_tokens', samplingParameters: false };
    if (/^o\d/.test(options.model.toLowerCase().replace(/^.*\//, ''))) {
      preset = { ...preset, parallelToolCalls: false };
    }
  }
  return options.quirks ? { ...preset, ...options.quirks } : preset;
}

/** The preset entries a model's `quirks:` may override. */
export type ProviderQuirks = Omit<ProviderPreset, 'name' | 'defaultApiType' | 'authHeader' | 'apiKeyEnv'>;

/** How each quirk is spelled in the config file, and which values it takes. */
export const quirkKeys: Readonly<
  Record<string, { field: keyof ProviderQuirks; values: readonly (string | boolean | null)[] }>
> = {
  stream_options: { field: 'streamOptions', values: [true, false] },
  parallel_tool_calls: { field: 'parallelToolCalls', values: [true, false] },
  max_tokens_field: { field: 'maxTokensField', values: ['max_tokens', 'max_completion_tokens'] },
  tool_choice_auto: { field: 'toolChoiceAuto', values: [true, false] },
  tool_choice_required: { field: 'toolChoiceRequired', values: [true, false] },
  tool_choice_named: { field: 'toolChoiceNamed', values: [true, false] },
  strict: { field: 'strict', values: [true, false] },
  reasoning_field: { field: 'reasoningField', values: ['reasoning_content', 'reasoning', 'thinking', null] },
  send_reasoning_back: { field: 'sendReasoningBack', values: ['tool-calls', 'never'] },
  assistant_content_with_tool_calls: { field: 'assistantContentWithToolCalls', values: [null, ''] },
  system_message_merge: { field: 'systemMessageMerge', values: [true, false] },
  tool_message_name: { field: 'toolMessageName', values: [true, false] },
  send_sampling_defaults: { field: 'sendSamplingDefaults', values: [true, false] },
  sampling_parameters: { field: 'samplingParameters', values: [true, false] },
  tool_call_format: { field: 'toolCallFormat', values: toolCallFormats },
};
