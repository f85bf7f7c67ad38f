export type RunIntent = 'start' | 'continue' | 'resume';

export interface RunDirectiveInput {
  intent: RunIntent;
  workflowId: string;
  /** The selected workflow's graph, relative to the package root. */
  graphPath: string;
  /** Absent once the workflow is complete: the post-run protocol follows instead. */
  currentNodeId?: string;
  effectiveAgentId: string;
  autopilot: boolean;
}

/** The RUN_DIRECTIVE user message (docs/workflows.md §3.3), with the active-run or the post-run protocol. */
export function renderRunDirective(input: RunDirectiveInput): string {
  const lines = [
    'RUN_DIRECTIVE',
    '- runType: bmad-micro',
    `- intent: ${input.intent}`,
    `- workflow: ${input.workflowId}`,
    '- state: @state/workflow.md',
    `- graph: @pkg/${input.graphPath}`,
    '- artifactsRoot: @project/artifacts/',
  ];
  if (input.currentNodeId !== undefined) lines.push(`- currentNodeId: ${input.currentNodeId}`);
  lines.push(`- effectiveAgentId: ${input.effectiveAgentId}`, `- autopilot: ${input.autopilot}`);
  return `${lines.join('\n')}\n\n${input.currentNodeId === undefined ? postRunProtocol : activeProtocol}`;
}

const activeProtocol = [
  'Protocol:',
  '1. The frontmatter of @state/workflow.md holds the run state; currentNodeId is where you are.',
  "2. The graph lists the nodes and the allowed transitions; open the current node's step file.",
  '3. Follow the step file exactly.',
  '4. If it needs answers from the user, ask them and WAIT: end your turn without tool calls.',
  '5. Only with the inputs it needs, write the artifacts, then update the state (stepsCompleted,',
  '   currentNodeId, variables, decisionLog, artifacts, updatedAt) with one fs.apply_patch.',
].join('\n');

const postRunProtocol = [
  'Protocol (post-run):',
  '1. The workflow is complete; no step is active.',
  '2. Keep helping in run mode: answer questions, review or improve the artifacts.',
  '3. The tools are still available.',
  "4. Any change to @state/workflow.md needs the user's confirmation first.",
  '5. If a confirmed change reopens the workflow, follow the normal protocol again.',
].join('\n');
