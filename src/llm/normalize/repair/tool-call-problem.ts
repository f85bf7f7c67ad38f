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

export type { RepairKind } from '../../../core/types.js';
