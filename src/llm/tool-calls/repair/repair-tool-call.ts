import type { Repair } from '../../../core/types.js';
import { generateToolCallId } from './generate-tool-call-id.js';
import { isRecord, parseToolArguments } from './parse-tool-arguments.js';
import type { RepairKind, ToolCallProblem } from './tool-call-problem.js';

export interface RepairedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  rawArguments: string;
}

export interface RepairToolCallContext {
  /** Mixed into generated ids, e.g. the response id, so equal calls in different responses differ. */
  responseKey?: string;
  /** The call was extracted from message text (problems then say so; the re-ask speaks as the user). */
  fromText?: boolean;
}

export interface RepairToolCallResult {
  call?: RepairedToolCall;
  repairs: Repair[];
  problem?: ToolCallProblem;
}

/** What a call object says once its shape is read: flat or nested, `arguments` or `parameters`. */
export interface WireShape {
  id?: string;
  name?: unknown;
  argumentsValue: unknown;
  shapeFixes: RepairKind[];
}

// The kinds a call's own repair records (the rest are recorded where reasoning, re-asks and markup are handled).
const repairDetails: Partial<Record<RepairKind, string>> = {
  'generated-id': 'the runner sent no id; one was derived from the position and the call',
  'missing-type': 'the call had no type; "function" assumed',
  'nested-flat-call': 'flat {name, arguments} call read as {function: {name, arguments}}',
  'parameters-key': 'arguments were sent under "parameters"',
  'empty-arguments': 'empty arguments read as {}',
  'json-repair': 'malformed JSON arguments repaired (quotes, keys, commas or closing brackets)',
  'truncated-json': 'arguments were cut off; the missing closing quotes and brackets were added',
  'code-fence': 'arguments were wrapped in a code fence; the fence was removed',
  'python-literals': 'Python True/False/None in the arguments replaced with JSON literals',
  'double-encoded': 'arguments were a JSON string holding JSON; decoded',
  'coerced-type': 'a value was converted to the type the schema declares',
  'text-extracted': 'the call was found in the message text',
};

/**
 * Turns one tool call as a runner sent it (any of the shapes in RUNNER-QUIRKS §6-9, 27-30) into a canonical
 * call, recording each fix; a call that cannot be repaired comes back as a `problem` instead. Pure; never throws.
 */
/** A call a decoder could not read, through the same pipeline: its name and arguments text as the runner sent them. */
export function repairIncompleteCall(
  call: { id: string; name: string; rawArguments: string },
  position: number,
  context: RepairToolCallContext = {},
): RepairToolCallResult {
  const wire = { id: call.id, type: 'function', function: { name: call.name, arguments: call.rawArguments } };
  return repairToolCall(wire, position, context);
}

export function repairToolCall(
  wire: unknown,
  position: number,
  context: RepairToolCallContext = {},
): RepairToolCallResult {
  const fromText = context.fromText ?? false;
  if (!isRecord(wire)) {
    const message = `tool call ${position} is not an object`;
    return { repairs: [], problem: createProblem({ index: position, fromText }, 'malformed-call', message) };
  }
  const shape = readWireShape(wire);
  const parsed = parseToolArguments(shape.argumentsValue);
  const name = typeof shape.name === 'string' ? shape.name.trim() : '';
  const id =
    shape.id ??
    generateToolCallId({ position, name, rawArguments: parsed.rawArguments, ...responseKeyOf(context) });
  const kinds: RepairKind[] = [
    ...(shape.id === undefined ? ['generated-id' as const] : []),
    ...shape.shapeFixes,
    ...(parsed.ok ? parsed.fixes : []),
  ];
  const repairs = kinds.map((kind) => ({ kind, toolCallId: id, detail: describeRepair(kind, id) }));
  const base = { toolCallId: id, index: position, fromText };
  if (name === '') {
    return {
      repairs,
      problem: createProblem(base, 'missing-name', `tool call ${position} has no function name`),
    };
  }
  if (!parsed.ok) {
    const message = `tool call ${position} (${name}): ${parsed.error}`;
    const problem = createProblem({ ...base, toolName: name }, 'invalid-arguments', message);
    return {
      repairs,
      problem: { ...problem, details: { ...problem.details, rawArguments: parsed.rawArguments } },
    };
  }
  return { call: { id, name, arguments: parsed.arguments, rawArguments: parsed.rawArguments }, repairs };
}

type ProblemBase = Pick<ToolCallProblem, 'toolCallId' | 'toolName' | 'index' | 'fromText'>;

function createProblem(
  base: ProblemBase,
  reason: 'malformed-call' | 'missing-name' | 'invalid-arguments',
  message: string,
): ToolCallProblem {
  const code = reason === 'missing-name' ? 'E_UNKNOWN_TOOL' : 'E_SCHEMA_VALIDATION';
  const tool = base.toolName === undefined ? {} : { tool: base.toolName };
  return { ...base, code, message, details: { reason, ...tool } };
}

/** The fixed sentence for a repair kind, with the generated id when there is one. */
export function describeRepair(kind: RepairKind, toolCallId?: string): string {
  const detail = repairDetails[kind] ?? kind;
  return kind === 'generated-id' && toolCallId !== undefined ? `${detail} (${toolCallId})` : detail;
}

/** Reads a call object of any shape a runner sends (RUNNER-QUIRKS §6-9, 28), naming each shape fix. */
export function readWireShape(wire: Record<string, unknown>): WireShape {
  const id = firstNonEmptyString(wire.id, wire.call_id);
  const nested = wire.function;
  if (isRecord(nested)) {
    const fixes: RepairKind[] = wire.type === undefined ? ['missing-type'] : [];
    return { ...pickArguments(nested, fixes), id, name: nested.name, shapeFixes: fixes };
  }
  // `function` as the bare name string is a flat call too.
  const name = typeof nested === 'string' ? nested : wire.name;
  // Responses-API items (`type: "function_call"`, `call_id`, `name`, `arguments`) are flat by design.
  const fixes: RepairKind[] = wire.type === 'function_call' || name === undefined ? [] : ['nested-flat-call'];
  return { ...pickArguments(wire, fixes), id, name, shapeFixes: fixes };
}

function pickArguments(holder: Record<string, unknown>, fixes: RepairKind[]): { argumentsValue: unknown } {
  const argumentsValue = holder.arguments;
  const useParameters = isAbsent(argumentsValue) && holder.parameters !== undefined;
  if (useParameters) fixes.push('parameters-key');
  return { argumentsValue: useParameters ? holder.parameters : argumentsValue };
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function firstNonEmptyString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

function responseKeyOf(context: RepairToolCallContext): { responseKey?: string } {
  return context.responseKey === undefined ? {} : { responseKey: context.responseKey };
}
