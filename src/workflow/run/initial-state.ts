import { SpineError } from '../../core/spine-error.js';
import { parseStateDocument, renderStateDocument } from '../state/state-document.js';
import { validateStateFrontmatter } from '../state/validate-state-frontmatter.js';
import { normalizeFrontmatter } from '../state/workflow-state.js';
import { stateFileMountPath } from './workflow-tools.js';

export interface InitialStateInput {
  /** The package's `workflow.md`. */
  template: string;
  runId: string;
  workflowId: string;
  activeAgentId: string;
  entryNodeId: string;
  now: Date;
}

/**
 * A new run's `@state/workflow.md` (docs/workflows.md §2.3): the package's workflow document with the run's
 * id, agent and workflow, `updatedAt` now, the progress fields reset (decision 11) and `currentNodeId` at the
 * graph's entry (decision 10). The body is kept. The result must pass the state schema, or no run is made.
 */
export function initialStateDocument(input: InitialStateInput): string {
  const document = parseStateDocument(input.template, stateFileMountPath);
  const frontmatter = normalizeFrontmatter({
    ...document.frontmatter,
    runId: input.runId,
    activeAgentId: input.activeAgentId,
    workflowRef: input.workflowId,
    currentNodeId: input.entryNodeId,
    stepsCompleted: [],
    variables: {},
    decisionLog: [],
    artifacts: [],
    updatedAt: input.now.toISOString(),
  });
  const faults = validateStateFrontmatter(frontmatter);
  if (faults.length > 0) {
    throw new SpineError({
      code: 'STATE_FILE_INVALID',
      message: `the workflow document cannot start a run: ${faults.map((fault) => `${fault.at || '/'} ${fault.message}`).join('; ')}`,
      details: { errors: faults },
    });
  }
  return renderStateDocument({ frontmatter, body: document.body });
}
