import { fsError } from '../../tools/fs/fs-failure.js';
import type { WorkflowGraph } from '../workflow-types.js';
import { parseStateDocument } from './state-document.js';
import { validateStateFrontmatter } from './validate-state-frontmatter.js';
import {
  effectiveNodeId,
  findNode,
  normalizeFrontmatter,
  outgoingEdges,
  readWorkflowState,
  type WorkflowState,
} from './workflow-state.js';

/** A legal next step as NODE_BRIEF and `E_INVALID_TRANSITION` both show it. */
export interface AllowedNext {
  to: string;
  label: string;
  isDefault?: boolean;
  conditionText?: string;
}

/**
 * The guard on every write of `@state/workflow.md` (docs/workflows.md §2.6, decision 23), given the file as it
 * is and as it would be. The first failure wins and is thrown as a tool error; the caller then leaves the file
 * untouched. In order (the `ifMatchSha256` precondition is checked before, by the write itself):
 * 1. either text has no readable YAML frontmatter → `E_INVALID_FRONTMATTER`;
 * 2. the next frontmatter, normalized, fails the state schema → `E_SCHEMA_VALIDATION` with the faults;
 * 3. the next node is not in the graph, or is another node with no edge to it from the current one →
 *    `E_INVALID_TRANSITION` with `allowedNext` (the current node's out-edges);
 * 4. a node id dropped from `stepsCompleted` → `E_SCHEMA_VALIDATION`, reason `stepsCompleted_regression`.
 * Returns the next state, which the write reports to the model.
 */
export function guardStateWrite(
  graph: WorkflowGraph,
  current: string,
  next: string,
  display: string,
): WorkflowState {
  const before = parseStateDocument(current, display).frontmatter;
  const after = normalizeFrontmatter(parseStateDocument(next, display).frontmatter);
  const faults = validateStateFrontmatter(after);
  if (faults.length > 0) {
    const list = faults.map((fault) => `${fault.at || '/'} ${fault.message}`).join('; ');
    throw fsError('E_SCHEMA_VALIDATION', `the new state of ${display} is not valid: ${list}`, {
      path: display,
      errors: faults,
    });
  }
  checkTransition(graph, before.currentNodeId, after.currentNodeId);
  const removed = stringList(before.stepsCompleted).filter(
    (step) => !(after.stepsCompleted as string[]).includes(step),
  );
  if (removed.length > 0) {
    throw fsError(
      'E_SCHEMA_VALIDATION',
      `stepsCompleted only grows: the write would remove ${removed.join(', ')}`,
      { path: display, reason: 'stepsCompleted_regression', removed },
    );
  }
  return readWorkflowState(after, graph);
}

function checkTransition(graph: WorkflowGraph, oldRaw: unknown, newRaw: unknown): void {
  const from = effectiveNodeId(oldRaw, graph);
  const to = effectiveNodeId(newRaw, graph);
  if (findNode(graph, to) !== undefined && (to === from || edgeExists(graph, from, to))) return;
  const allowedNext = allowedNextOf(graph, from);
  const known = findNode(graph, to) !== undefined;
  throw fsError(
    'E_INVALID_TRANSITION',
    `Invalid transition: ${from} → ${to}${known ? '' : ` (${to} is not a node of the graph)`}; allowed next: ${
      allowedNext.map((next) => next.to).join(', ') || 'none'
    }`,
    { from, to, allowedNext },
  );
}

function edgeExists(graph: WorkflowGraph, from: string, to: string): boolean {
  return graph.edges.some((edge) => edge.from === from && edge.to === to);
}

/** The out-edges of a node, as the model is shown them. */
export function allowedNextOf(graph: WorkflowGraph, nodeId: string): AllowedNext[] {
  return outgoingEdges(graph, nodeId).map((edge) => {
    const next: AllowedNext = { to: edge.to, label: edge.label };
    if (edge.isDefault === true) next.isDefault = true;
    if (edge.conditionText !== undefined) next.conditionText = edge.conditionText;
    return next;
  });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
