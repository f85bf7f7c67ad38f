import type { AllowedNext } from '../state/guard-state-write.js';
import type { GraphNode } from '../workflow-types.js';

export interface NodeBriefInput {
  node: GraphNode;
  /** The node's outputs and inputs as the step declares them (graph node first, else step frontmatter). */
  outputs: readonly string[];
  inputs: readonly string[];
  allowedNext: readonly AllowedNext[];
  /** The node is an `end` node not yet completed: the brief says how to finish the run. */
  finishing: boolean;
}

/**
 * The NODE_BRIEF user message in its protocol form (docs/workflows.md §3.4, decision 8). The step file is
 * named, never inlined: the model reads it (decision 27).
 */
export function renderNodeBrief(input: NodeBriefInput): string {
  const { node } = input;
  const lines = [
    'NODE_BRIEF',
    `- currentNodeId: ${node.id} (type=${node.type})`,
    `- stepFile: @pkg/${node.file}`,
  ];
  if (input.inputs.length > 0) {
    lines.push('- inputsMap:');
    for (const path of input.inputs) lines.push(`  - ${path} -> ${mountPathOf(path)}`);
  }
  lines.push('- outputsMap:');
  for (const path of input.outputs) lines.push(`  - ${path} -> ${mountPathOf(path)}`);
  lines.push('- allowedNext:');
  for (const next of input.allowedNext) lines.push(`  - ${describeNext(next)}`);
  if (node.type === 'decision')
    lines.push(
      '- Decision rules: choose one allowed next node, set the variables the choice rests on, and append one',
      '  decisionLog entry { from, to, label, reason } in the same state update.',
    );
  if (input.finishing)
    lines.push(
      `- Finishing: when this end step is done, append "${node.id}" to stepsCompleted and set`,
      '  variables.workflowStatus to "complete" (currentNodeId stays), then tell the user what was produced.',
    );
  return lines.join('\n');
}

function describeNext(next: AllowedNext): string {
  const extras = [`label=${next.label}`];
  if (next.isDefault === true) extras.push('default=true');
  if (next.conditionText !== undefined) extras.push(`conditionText=${JSON.stringify(next.conditionText)}`);
  return `${next.to} (${extras.join(', ')})`;
}

/**
 * Where a path a step names lives (docs/workflows.md §1.9): `assets/…` and `steps/…` are package files,
 * a path that already names a mount is kept, anything else is a project path.
 */
export function mountPathOf(path: string): string {
  if (path.startsWith('@')) return path;
  const relative = path.replace(/^\.\//, '');
  if (relative.startsWith('assets/') || relative.startsWith('steps/')) return `@pkg/${relative}`;
  return `@project/${relative}`;
}
