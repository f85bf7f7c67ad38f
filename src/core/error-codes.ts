/** Stable error codes. Callers switch on these, never on messages. */
export const llmErrorCodes = [
  'LLM_AUTH_FAILED',
  'LLM_TIMEOUT',
  'LLM_RATE_LIMITED',
  'LLM_CONNECTION',
  'LLM_SERVER_ERROR',
  'LLM_HTTP_ERROR',
  'LLM_BAD_RESPONSE',
  'LLM_INVALID_TOOL_CALL',
  'LLM_CONTEXT_OVERFLOW',
  'LLM_CIRCUIT_OPEN',
  'LLM_BUDGET_EXCEEDED',
  'LLM_ABORTED',
  'LLM_RESPONSE_TOO_LARGE',
] as const;

export const engineErrorCodes = [
  'ENGINE_ABORTED',
  'ENGINE_LOOP_DETECTED',
  'ENGINE_MAX_TURNS',
  'ENGINE_INCOMPLETE_TOOL_CALL',
  'ENGINE_UNKNOWN_RUN',
  'ENGINE_RUN_BUSY',
] as const;

export const toolErrorCodes = [
  'ENOENT',
  'E_SANDBOX_VIOLATION',
  'E_READ_LIMIT',
  'E_WRITE_LIMIT',
  'E_INVALID_FRONTMATTER',
  'E_SCHEMA_VALIDATION',
  'E_INVALID_TRANSITION',
  'E_PRECONDITION_FAILED',
  'E_UNKNOWN_TOOL',
  'E_TIMEOUT',
  'E_ABORTED',
  'E_LOCKED',
  'E_PATH_TOO_LONG',
  'E_READ_ONLY_FILESYSTEM',
  'E_PERMISSION_DENIED',
  'E_NO_SPACE',
  'E_INTERNAL',
  'SKILL_NOT_FOUND',
  'MCP_CONNECTION_FAILED',
  'MCP_TOOL_ERROR',
  'MCP_REQUEST_FAILED',
] as const;

export const configErrorCodes = ['CONFIG_INVALID'] as const;

/** Workflow packages' and runs' own failures (docs/workflows.md §1, §2.3, §4.5). */
export const runErrorCodes = [
  'RUN_LOCKED',
  'RUN_NOT_FOUND',
  'RUN_RECORD_INVALID',
  'PROJECT_ROOT_INVALID',
  'AGENT_NOT_FOUND',
  'CURRENT_NODE_INVALID',
  'STATE_FILE_INVALID',
  'PACKAGE_NOT_FOUND',
  'PACKAGE_INVALID',
  'PACKAGE_UNSAFE_ENTRY',
  'PACKAGE_TOO_LARGE',
  'WORKFLOW_REF_REQUIRED',
  'WORKFLOW_REF_UNKNOWN',
] as const;

export type LlmErrorCode = (typeof llmErrorCodes)[number];
export type EngineErrorCode = (typeof engineErrorCodes)[number];
export type ToolErrorCode = (typeof toolErrorCodes)[number];
export type ConfigErrorCode = (typeof configErrorCodes)[number];
export type RunErrorCode = (typeof runErrorCodes)[number];
export type ErrorCode = LlmErrorCode | EngineErrorCode | ToolErrorCode | ConfigErrorCode | RunErrorCode;
