import type { EngineEvent } from '../../engine/engine-events.js';
import type { EngineError, RunPhase } from '../../engine/engine-types.js';

/** What a workflow run reports beside the engine's own events. */
export type WorkflowEvent =
  | EngineEvent
  /** The state file changed: a node was completed, the run moved on, or an artifact was recorded. */
  | {
      type: 'workflow-progress';
      runId: string;
      from: string;
      currentNodeId: string;
      stepsDone: number;
      totalNodes: number;
      artifacts: number;
      complete: boolean;
    }
  /** Where a pump stopped. */
  | {
      type: 'workflow-phase';
      runId: string;
      phase: RunPhase;
      currentNodeId: string;
      error?: EngineError;
    };

export type WorkflowEventListener = (event: WorkflowEvent) => void;
