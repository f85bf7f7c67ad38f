import { performance } from 'node:perf_hooks';
import type { ToolCall, ToolMessage, ToolResult } from '../core/types.js';
import { toolFailure } from '../tools/to-tool-result.js';
import type { ToolExecutionContext, ToolHost } from '../tools/tool-host.js';
import { type EngineEvent, summarizeToolResult } from './engine-events.js';

export interface ToolRun {
  toolCallId: string;
  toolName: string;
  args: unknown;
  result: ToolResult;
  durationMs: number;
}

/** A run with its tool message content, serialized once. */
export interface SettledToolRun {
  run: ToolRun;
  message: ToolMessage;
}

export interface RunToolCallsOptions {
  calls: ToolCall[];
  host: ToolHost;
  context: ToolExecutionContext & { signal: AbortSignal };
  parallel: boolean;
  runId: string;
  turnId: string;
  emit: (event: EngineEvent) => void;
}

/**
 * Runs one assistant message's tool calls and returns one run per call, in call order. A started tool is told
 * of a cancel and given a moment to stop by itself (a file write finishes its rename); one that ignores it is
 * abandoned with `E_ABORTED` (see `runToolWithTimeout`). Calls not yet started when the run is cancelled are
 * answered `ENGINE_ABORTED` without running, so every `tool_call_id` still gets its message.
 */
export async function runToolCalls(options: RunToolCallsOptions): Promise<SettledToolRun[]> {
  if (options.parallel) return Promise.all(options.calls.map((call) => runOneCall(call, options)));
  const runs: SettledToolRun[] = [];
  for (const call of options.calls) runs.push(await runOneCall(call, options));
  return runs;
}

async function runOneCall(call: ToolCall, options: RunToolCallsOptions): Promise<SettledToolRun> {
  const toolName = options.host.resolveName(call.name) ?? call.name;
  const base = { toolCallId: call.id, toolName, args: call.arguments };
  if (options.context.signal.aborted) {
    const result = toolFailure('ENGINE_ABORTED', 'not run: the run was cancelled before this call started');
    return settle({ ...base, result, durationMs: 0 });
  }
  const { runId, turnId, emit } = options;
  emit({ type: 'tool-start', runId, turnId, toolCallId: call.id, name: toolName, args: call.arguments });
  const startedAt = performance.now();
  const settled = settle({ ...base, result: await executeSafely(call, options), durationMs: 0 });
  const result = settled.run.result;
  const durationMs = Math.round((performance.now() - startedAt) * 1000) / 1000;
  const summary = summarizeToolResult(result);
  emit({
    type: 'tool-end',
    runId,
    turnId,
    toolCallId: call.id,
    name: toolName,
    ok: result.ok,
    durationMs,
    summary,
    result,
  });
  settled.run.durationMs = durationMs;
  return settled;
}

/** Serializes the result once: `{ role: 'tool', tool_call_id, content: JSON.stringify(result) }`. */
function settle(run: ToolRun): SettledToolRun {
  let content: string;
  try {
    content = JSON.stringify(run.result);
  } catch (error) {
    run.result = toolFailure('E_INTERNAL', `the tool result is not JSON: ${(error as Error).message}`);
    content = JSON.stringify(run.result);
  }
  return { run, message: { role: 'tool', tool_call_id: run.toolCallId, content } };
}

async function executeSafely(call: ToolCall, options: RunToolCallsOptions): Promise<ToolResult> {
  try {
    return await options.host.execute(
      { id: call.id, name: call.name, arguments: call.arguments },
      options.context,
    );
  } catch (error) {
    // A ToolHost is not supposed to throw; a custom one that does must not end the run.
    return toolFailure('E_INTERNAL', error instanceof Error ? error.message : String(error));
  }
}
