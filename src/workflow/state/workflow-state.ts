import type { GraphEdge, GraphNode, WorkflowGraph } from '../workflow-types.js';

/** A run's position and progress, read from the frontmatter of `@state/workflow.md`. */
export interface WorkflowState {
  /** The effective node: the frontmatter's `currentNodeId`, trimmed, or the graph's entry when empty. */
  currentNodeId: string;
  stepsCompleted: string[];
  variables: Record<string, unknown>;
  decisionLog: Array<Record<string, unknown>>;
  artifacts: string[];
  /** The whole frontmatter as written (runtime extras such as `runId`, `activeAgentId` included). */
  frontmatter: Record<string, unknown>;
}

/**
 * The frontmatter with its defaults filled in (docs/workflows.md, decision 24): missing `variables` is `{}`,
 * missing lists are `[]`, `currentNodeId` is trimmed. Types are never coerced: a wrong type stays wrong for
 * the schema to report.
 */
export function normalizeFrontmatter(frontmatter: Record<string, unknown>): Record<string, unknown> {
  const normalized = { ...frontmatter };
  normalized.variables ??= {};
  normalized.stepsCompleted ??= [];
  normalized.decisionLog ??= [];
  normalized.artifacts ??= [];
  if (typeof normalized.currentNodeId === 'string')
    normalized.currentNodeId = normalized.currentNodeId.trim();
  return normalized;
}

/** The state of a normalized, schema-valid frontmatter. */
export function readWorkflowState(frontmatter: Record<string, unknown>, graph: WorkflowGraph): WorkflowState {
  const normalized = normalizeFrontmatter(frontmatter);
  return {
    currentNodeId: effectiveNodeId(normalized.currentNodeId, graph),
    stepsCompleted: [...(normalized.stepsCompleted as string[])],
    variables: { ...(normalized.variables as Record<string, unknown>) },
    decisionLog: [...(normalized.decisionLog as Array<Record<string, unknown>>)],
    artifacts: [...(normalized.artifacts as string[])],
    frontmatter: normalized,
  };
}

/** `trim(raw) || entryNodeId`: an empty `currentNodeId` means "at the entry" (decision 10). */
export function effectiveNodeId(raw: unknown, graph: WorkflowGraph): string {
  const trimmed = typeof raw === 'string' ? raw.trim() : '';
  return trimmed === '' ? graph.entryNodeId : trimmed;
}

export function findNode(graph: WorkflowGraph, nodeId: string): GraphNode | undefined {
  return graph.nodes.find((node) => node.id === nodeId);
}

export function outgoingEdges(graph: WorkflowGraph, nodeId: string): GraphEdge[] {
  return graph.edges.filter((edge) => edge.from === nodeId);
}

/**
 * The completion predicate (decision 12): `variables.workflowStatus` is `"complete"`, or the run stands on an
 * `end` node that is already in `stepsCompleted`. Reaching an end node is not enough; text never decides.
 */
export function isWorkflowComplete(state: WorkflowState, graph: WorkflowGraph): boolean {
  if (state.variables.workflowStatus === 'complete') return true;
  const node = findNode(graph, state.currentNodeId);
  return node?.type === 'end' && state.stepsCompleted.includes(node.id);
}
