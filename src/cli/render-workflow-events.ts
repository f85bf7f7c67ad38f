import type { WorkflowEvent } from '../workflow/run/workflow-events.js';
import type { EngineEventRenderer } from './render-engine-events.js';
import type { TerminalOutput } from './terminal-output.js';

/**
 * The live view of a workflow run: the engine's events as `spine chat` shows them (answer text, each tool
 * call and result), plus a line whenever the run moves: `◆ step-02-discover-inputs (1 of 6 steps done)`.
 */
export function renderWorkflowEvents(
  engine: EngineEventRenderer,
  info: TerminalOutput,
): (event: WorkflowEvent) => void {
  return (event) => {
    if (event.type === 'workflow-progress') {
      info.endLine();
      const where = event.complete ? 'workflow complete' : `at ${event.currentNodeId}`;
      info.line(
        `◆ ${where} (${event.stepsDone} of ${event.totalNodes} steps done, ${event.artifacts} artifacts)`,
      );
      return;
    }
    if (event.type === 'workflow-phase') return;
    engine.render(event);
  };
}
