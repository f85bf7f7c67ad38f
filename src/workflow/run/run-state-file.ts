import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import { parseStateDocument } from '../state/state-document.js';
import { validateStateFrontmatter } from '../state/validate-state-frontmatter.js';
import { findNode, readWorkflowState, type WorkflowState } from '../state/workflow-state.js';
import type { WorkflowGraph } from '../workflow-types.js';
import { stateFileMountPath, stateFileName } from './workflow-tools.js';

/**
 * Reads a run's position from its state file alone (docs/workflows.md §2.4, §4.5): parsed, checked against
 * the state schema, and its current node checked against the graph. Synchronous: it is small, and the
 * engine's completion check asks for it between turns.
 */
export function readRunState(runDir: string, graph: WorkflowGraph): WorkflowState {
  let text: string;
  try {
    text = readFileSync(join(runDir, stateFileName), 'utf8');
  } catch (error) {
    throw new SpineError({
      code: 'STATE_FILE_INVALID',
      message: `the run has no readable state file (${stateFileMountPath}): ${(error as Error).message}`,
      cause: error,
    });
  }
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseStateDocument(text, stateFileMountPath).frontmatter;
  } catch (error) {
    throw new SpineError({
      code: 'STATE_FILE_INVALID',
      message: (error as Error).message,
      cause: error,
    });
  }
  const state = readWorkflowState(frontmatter, graph);
  const faults = validateStateFrontmatter(state.frontmatter);
  if (faults.length > 0) {
    throw new SpineError({
      code: 'STATE_FILE_INVALID',
      message: `${stateFileMountPath} is not a valid state: ${faults.map((fault) => `${fault.at || '/'} ${fault.message}`).join('; ')}`,
      details: { errors: faults },
    });
  }
  if (findNode(graph, state.currentNodeId) === undefined) {
    throw new SpineError({
      code: 'CURRENT_NODE_INVALID',
      message: `${stateFileMountPath} names currentNodeId "${state.currentNodeId}", which is not a node of the graph (nodes: ${graph.nodes.map((node) => node.id).join(', ')})`,
      details: { currentNodeId: state.currentNodeId, nodes: graph.nodes.map((node) => node.id) },
    });
  }
  return state;
}
