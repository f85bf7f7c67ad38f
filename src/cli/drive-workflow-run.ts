import { createInterface } from 'node:readline/promises';
import type { PumpResult, WorkflowRun } from '../workflow/run/workflow-run.js';

export interface DriveOptions {
  /** The user's input for the first pump (`spine resume --input`). */
  input?: string;
  /** Print the stop as one JSON object and never prompt. */
  json: boolean;
  /** Prompt at `WaitingUser` (a terminal, without --json). */
  interactive: boolean;
  signal: AbortSignal;
}

/**
 * Pumps a workflow run from the terminal: at `WaitingUser` an interactive run asks for the user's answer and
 * goes on; otherwise, or at any other stop, it prints where the run stands and how to go on.
 */
export async function driveWorkflowRun(run: WorkflowRun, options: DriveOptions): Promise<PumpResult> {
  let input = options.input;
  for (;;) {
    const result = await run.pump({ ...(input !== undefined ? { input } : {}), signal: options.signal });
    if (result.phase !== 'WaitingUser' || !options.interactive || options.signal.aborted) {
      report(run, result, options.json);
      return result;
    }
    input = await askUser();
    if (input === undefined) {
      report(run, result, options.json);
      return result;
    }
  }
}

async function askUser(): Promise<string | undefined> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const answer = await prompt.question('\nyou> ');
    return answer.trim() === '' ? undefined : answer;
  } catch {
    return undefined;
  } finally {
    prompt.close();
  }
}

function report(run: WorkflowRun, result: PumpResult, json: boolean): void {
  if (json) {
    const { runId, phase, currentNodeId, assistantText, state } = result;
    process.stdout.write(
      `${JSON.stringify({ runId, phase, currentNodeId, assistantText, state, error: result.error ?? null })}\n`,
    );
  }
  if (result.error) process.stderr.write(`${result.error.code}: ${result.error.message}\n`);
  process.stderr.write(
    `run ${run.runId}: ${result.phase} at ${result.currentNodeId} (${result.state.stepsCompleted.length} steps done)\n`,
  );
  if (result.phase === 'WaitingUser' || result.phase === 'Failed')
    process.stderr.write(`to go on: spine resume ${run.runId} --input "<your answer>"\n`);
  if (result.phase === 'Failed') process.exitCode = 1;
}
