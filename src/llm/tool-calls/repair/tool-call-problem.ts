// The types live in core (a ModelResponse carries its problems); named here for the repair code that makes them.
export type { RepairKind, ToolCallProblem, ToolCallProblemCode } from '../../../core/types.js';
