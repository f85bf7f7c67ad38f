/** What the system prompt says about the file tools' mounts. */
export interface MountSummary {
  projectWritable: boolean;
  hasState: boolean;
}

/**
 * The CLI's system prompt. Small models guess plain or absolute paths unless told, and every such guess
 * costs a refused call and a turn, so the mounts are spelled out with an example path.
 */
export function composeSystemPrompt(mounts: MountSummary | undefined): string {
  const lines = [
    'You are Spine, an assistant that works through the tools you are given.',
    'Use a tool when it helps; when you have the answer, reply in plain text without calling a tool.',
  ];
  if (mounts === undefined) return lines.join('\n');
  lines.push(
    '',
    'Files are reached only through the fs tools, with paths that start with a mount:',
    `- @project/ is the user's project folder (${mounts.projectWritable ? 'read-write' : 'read-only'}), e.g. @project/README.md`,
  );
  if (mounts.hasState)
    lines.push(
      `- @state/ is this run's private folder${mounts.projectWritable ? ' for notes and scratch files (read-write)' : ''}`,
    );
  lines.push('Absolute paths, "..", and links that lead out of a mount are refused.');
  return lines.join('\n');
}
