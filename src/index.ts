// The public face of Spine. Every name is listed on purpose: internals stay internal.

export {
  type ConfigErrorCode,
  type EngineErrorCode,
  type ErrorCode,
  engineErrorCodes,
  type LlmErrorCode,
  llmErrorCodes,
  type ToolErrorCode,
  toolErrorCodes,
} from './core/error-codes.js';
export { SpineError, type SpineErrorOptions } from './core/spine-error.js';
// core: shapes and errors
export type {
  AssistantMessage,
  ChatMessage,
  ContentPart,
  FinishReason,
  IncompleteToolCall,
  JsonObject,
  JsonValue,
  ModelClient,
  ModelRequest,
  ModelResponse,
  Repair,
  RetryInfo,
  StreamEvent,
  SystemMessage,
  ToolCall,
  ToolChoice,
  ToolErrorBody,
  ToolFailure,
  ToolMessage,
  ToolResult,
  ToolSpec,
  ToolSuccess,
  Usage,
  UserMessage,
  WireToolCall,
} from './core/types.js';
// the loop
export { createEngine, type Engine } from './engine/engine.js';
export type { EngineEvent, EngineEventListener } from './engine/engine-events.js';
export type {
  EngineError,
  EngineOptions,
  EngineResult,
  RunInput,
  RunPhase,
  StartOptions,
} from './engine/engine-types.js';
export { type HistoryOptions, MessageHistory } from './engine/history.js';
export { findConfigFile, loadConfig } from './llm/config/load-config.js';
export { parseConfig } from './llm/config/parse-config.js';
export { endpointOf } from './llm/config/resolve-role-settings.js';
export type { ModelRoleConfig, SpineConfig } from './llm/config/spine-config.js';
// models: one endpoint, and roles from configuration
export type { Endpoint } from './llm/endpoint.js';
export {
  createLlmClient,
  type LlmCallRequest,
  type LlmClient,
  type LlmClientConfig,
  type LlmClientEvent,
  type LlmClientOptions,
} from './llm/llm-client.js';
export { createModelClient, type ModelClientOptions } from './llm/model-client.js';
export { diagnoseEndpoint, type EndpointDiagnosis } from './llm/probe/diagnose-endpoint.js';
export {
  type ApiType,
  apiTypes,
  type ProviderName,
  type ProviderPreset,
  type ProviderQuirks,
  providerNames,
  resolvePreset,
} from './llm/providers/presets.js';
export { type AuditEntry, type AuditLog, createAuditLog } from './tools/audit-log.js';
export { type AuditLogRead, readAuditLog } from './tools/audit-log-reader.js';
// tools
export {
  defineTool,
  type JsonSchema,
  type ToolContext,
  type ToolDefinition,
  type ToolLogger,
} from './tools/define-tool.js';
export { formatAuditLog } from './tools/format-audit-log.js';
export { defaultFsLimits, type FsLimits } from './tools/fs/fs-limits.js';
export { type FsToolsOptions, fsTools } from './tools/fs/fs-tools.js';
export {
  createToolHost,
  type ToolHost,
  type ToolHostOptions,
  type ToolHostSource,
  type ToolSource,
} from './tools/tool-host.js';
export {
  type OpenPackageOptions,
  openPackage,
  type PackageReport,
  selectWorkflow,
  validatePackage,
} from './workflow/package/open-package.js';
export type {
  PackageManifest,
  PackageProblem,
  StepFile,
  WorkflowDefinition,
  WorkflowPackage,
} from './workflow/package/package-types.js';
export {
  type ComposeRequest,
  PromptComposer,
  type PromptComposerOptions,
  type PromptMode,
} from './workflow/prompt/prompt-composer.js';
export type { RunIntent } from './workflow/prompt/run-directive.js';
export {
  defaultToolPolicy,
  type EffectiveToolPolicy,
  mergeToolPolicy,
} from './workflow/prompt/tool-policy.js';
export { type CreateRunOptions, createRun } from './workflow/run/create-run.js';
export { listRuns } from './workflow/run/list-runs.js';
export { openRunPackage, packageOpener } from './workflow/run/open-run-package.js';
export { type ResumeRunOptions, resumeRun } from './workflow/run/resume-run.js';
export type { PackageOpener, RunPackage } from './workflow/run/run-package.js';
export type { RunRecord, RunRecordPhase } from './workflow/run/run-record.js';
export type { WorkflowEvent, WorkflowEventListener } from './workflow/run/workflow-events.js';
export { type PumpResult, WorkflowRun, type WorkflowRunOptions } from './workflow/run/workflow-run.js';
export { type AllowedNext, guardStateWrite } from './workflow/state/guard-state-write.js';
export { isWorkflowComplete, type WorkflowState } from './workflow/state/workflow-state.js';
export type {
  AgentDefinition,
  AgentToolPolicy,
  GraphEdge,
  GraphNode,
  NodeType,
  WorkflowGraph,
} from './workflow/workflow-types.js';
