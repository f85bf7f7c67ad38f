/**
 * The USER_INPUT user message (docs/workflows.md §3.5): the user's text unmodified, with the node it answers
 * while a workflow step is active.
 */
export function renderUserInput(text: string, forNodeId?: string): string {
  return forNodeId === undefined ? `USER_INPUT\n${text}` : `USER_INPUT\n- forNodeId: ${forNodeId}\n${text}`;
}
