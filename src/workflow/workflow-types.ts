/**
 * The parts of a v1.1 workflow package the run-time reads (docs/workflows.md §1): the graph, the agents and
 * their tool policy. The loader validates them against the package schemas before a run sees them.
 */
export type NodeType = 'step' | 'decision' | 'merge' | 'end' | 'subworkflow';

export interface GraphNode {
  id: string;
  type: NodeType;
  /** The step file, relative to the package root. */
  file: string;
  title?: string;
  description?: string;
  agentId?: string;
  inputs?: string[];
  outputs?: string[];
}

export interface GraphEdge {
  from: string;
  to: string;
  label: string;
  id?: string;
  isDefault?: boolean;
  conditionText?: string;
  conditionExpr?: unknown;
}

export interface WorkflowGraph {
  schemaVersion: string;
  entryNodeId: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  metadata?: Record<string, unknown>;
}

export interface AgentToolPolicy {
  fs?: { enabled?: boolean; maxReadBytes?: number; maxWriteBytes?: number };
  mcp?: { enabled?: boolean; allowedServers?: string[] };
}

export interface AgentDefinition {
  id: string;
  metadata: { name: string; title: string; icon: string; description?: string };
  persona: { role: string; identity: string; communication_style: string; principles: string | string[] };
  systemPrompt?: string;
  tools?: AgentToolPolicy;
  [extra: string]: unknown;
}
