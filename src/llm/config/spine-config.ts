import type { ApiType, ProviderName, ProviderQuirks } from '../providers/presets.js';

/** One model role as configured: `models.<role>` in `spine.yaml`, with `defaults:` already applied. */
export interface ModelRoleConfig {
  /** The model name sent to the runner (`id` in the file). */
  id: string;
  /** A base URL, or a full `…/chat/completions`, `…/responses` or `…/api/chat` URL. */
  endpoint: string;
  /** Given, or inferred from the endpoint URL, else the provider's default. */
  apiType: ApiType;
  /** Given, or inferred from the host (api.openai.com, api.deepseek.com, *.openai.azure.com, port 11434). */
  provider: ProviderName;
  contextLength?: number;
  maxConcurrency?: number;
  timeoutS?: number;
  /** Environment variable holding the key; a missing variable is an error only when the role is used. */
  apiKeyEnv?: string;
  quirks?: Partial<ProviderQuirks>;
  temperature?: number;
  maxTokens?: number;
  circuitBreaker?: CircuitBreakerConfig;
  headers?: Record<string, string>;
  /** A key given directly (a command-line flag); wins over `apiKeyEnv`. Never read from the file. */
  apiKey?: string;
  /** Retries after the first attempt (default 2); set by a flag, not the file. */
  maxRetries?: number;
  /** Each attempt's wait for the response headers (ms); set by a flag, not the file. */
  firstByteTimeoutMs?: number;
  /** Longest silence between stream chunks (ms); set by a flag, not the file. */
  idleTimeoutMs?: number;
}

export interface CircuitBreakerConfig {
  /** Consecutive retryable failures that open the circuit (default 5). */
  failureThreshold?: number;
  /** How long the circuit stays open before one trial call (default 30 s). */
  coolDownS?: number;
}

/** Hard limits stop further calls with LLM_BUDGET_EXCEEDED; soft ones only raise a `budget-warning` event. */
export interface BudgetConfig {
  maxCalls?: number;
  maxTotalTokens?: number;
  softCalls?: number;
  softTotalTokens?: number;
}

/** Limits applied to every call before it is sent (spec 001 §7). */
export interface GovernanceConfig {
  /** Caps `maxTokens` (a call asking for more gets this many). */
  maxTokens?: number;
  /** Caps `temperature`. */
  maxTemperature?: number;
  /** Tools never offered to the model. */
  blockedTools?: string[];
  /** MCP servers a run may start; unset admits every configured server. */
  allowedServers?: string[];
}

export interface SpineConfig {
  models: Record<string, ModelRoleConfig>;
  budget?: BudgetConfig;
  governance?: GovernanceConfig;
  /** Skills folders (`skills:`), relative to the config file's folder as written. */
  skills?: string[];
  /** MCP servers by name (`mcp_servers:`): a command to start, or a URL. */
  mcpServers?: Record<
    string,
    {
      command?: string;
      args?: string[];
      env?: Record<string, string>;
      cwd?: string;
      url?: string;
      headers?: Record<string, string>;
    }
  >;
  /** Where the config came from, so errors found later (a missing key variable) can name file and line. */
  source?: ConfigSource;
}

export interface ConfigSource {
  file: string;
  /** Line of each key path, e.g. `models.coding.api_key_env` → 9. */
  lines: Record<string, number>;
}
