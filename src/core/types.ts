/**
 * Canonical shapes. The message is OpenAI's chat message; providers translate at the edge.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system';
  content: string;
}
export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
}
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: WireToolCall[];
  /** Provider reasoning kept for pass-back (DeepSeek thinking mode); presets decide whether it is sent. */
  reasoning_content?: string;
}
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
  name?: string;
}
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** An OpenAI function tool as sent on the wire. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** One model call, in Spine's words. */
export interface ModelRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  /** Let the model call several tools in one message; left out where the preset says the runner rejects it. */
  parallelToolCalls?: boolean;
  /** Overrides the client's model for this call. */
  model?: string;
  /** Extra body fields passed through to the runner as they are (e.g. `seed`, `top_p`). */
  extraBody?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The whole call, retries included (ms; 0: no limit). */
  timeoutMs?: number;
  /** Each attempt's wait for the response headers (ms; 0: no limit). */
  firstByteTimeoutMs?: number;
  /** Longest silence between chunks once headers arrived (ms; 0: no limit). */
  idleTimeoutMs?: number;
  /** Called before each retry; the same information is also a `retry` stream event. */
  onRetry?: (info: RetryInfo) => void;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'unknown';

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments (always an object). */
  arguments: Record<string, unknown>;
  /** The arguments as the runner sent them (a JSON string; objects are stringified). */
  rawArguments: string;
}

/** A call the runner did not finish (cut off by max_tokens): reported, never runnable. */
export interface IncompleteToolCall {
  id: string;
  name: string;
  rawArguments: string;
}

export interface Usage {
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  reasoningTokens?: number;
  cachedTokens?: number;
  /** Wall time of the call as seen by the client, first byte sent to last byte read. */
  latencyMs: number;
  /** Durations the runner reported, in milliseconds (Ollama: `totalMs`, `loadMs`, `promptEvalMs`, `evalMs`). */
  timings?: Record<string, number>;
}

/** One fix normalization made (DECISIONS.md §9). */
/** Stable words for `Repair.kind` (DECISIONS.md §9), every one Spine records. */
export type RepairKind =
  | 'generated-id'
  | 'missing-type'
  | 'nested-flat-call'
  | 'parameters-key'
  | 'empty-arguments'
  | 'json-repair'
  | 'truncated-json'
  | 'code-fence'
  | 'python-literals'
  | 'double-encoded'
  | 'coerced-type'
  | 'text-extracted'
  | 'unparsed-call-markup'
  | 'unclosed-think'
  | 'think-opened-by-template'
  | 'reask';

/** Why a tool call from the model cannot be run as it is; the re-ask tells the model this. */
export interface ToolCallProblem {
  /** The call's id (the runner's, or the stable generated one); absent when none could be given. */
  toolCallId?: string;
  toolName?: string;
  /** Position of the call in the response (0-based). */
  index?: number;
  /** True when the call was found in the message text rather than in structured `tool_calls`. */
  fromText: boolean;
  code: ToolCallProblemCode;
  message: string;
  details: Record<string, unknown>;
}

export type ToolCallProblemCode = 'E_SCHEMA_VALIDATION' | 'E_UNKNOWN_TOOL';

export interface Repair {
  kind: RepairKind;
  toolCallId?: string;
  detail: string;
}

export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
  incompleteToolCalls: IncompleteToolCall[];
  reasoning: string | null;
  usage: Usage;
  finishReason: FinishReason;
  model: string | null;
  repairs: Repair[];
  /** The assistant message to append to history, as the runner meant it. */
  message: AssistantMessage;
  /** The last raw wire object (non-streamed body, or the last chunk). For debugging only. */
  raw: unknown;
  /**
   * Why calls of this answer cannot run as they are (an unknown tool, arguments failing the schema), found once
   * when the answer was settled; the re-ask tells the model exactly these. Absent when every call is fine.
   */
  toolCallProblems?: ToolCallProblem[];
  /** The message as the runner sent it, when settling rewrote it (calls taken out of the text): a re-ask shows it. */
  sentMessage?: AssistantMessage;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  code: string;
  reason: string;
}

export type StreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'retry'; retry: RetryInfo }
  | { type: 'done'; response: ModelResponse };

/**
 * Result of one tool execution. Tools never throw past the ToolHost. A plain value returned by a tool is
 * wrapped as `{ ok: true, data }`; tools with a specified result shape (the `fs.*` tools) return their
 * fields flat beside `ok`, as the protocol spec gives them.
 */
export type ToolResult = ToolSuccess | ToolFailure;
export interface ToolSuccess {
  ok: true;
  data?: unknown;
  [field: string]: unknown;
}
export interface ToolFailure {
  ok: false;
  error: ToolErrorBody;
}
export interface ToolErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

/** What every model endpoint offers: one call, streamed or collected. */
export interface ModelClient {
  respond(request: ModelRequest): Promise<ModelResponse>;
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}
