/**
 * The content of a streamed response, given the text already emitted as `text-delta` events: it always
 * begins with that text, so the `done` response agrees with the events. Normally `content` already does;
 * when extraction trimmed whitespace the stream had already shown (text before a call), the emitted text
 * is kept and the rest follows it. When they differ in more than whitespace, the stream showed text that turned
 * out to be something else (reasoning whose `<think>` the template opened, DECISIONS §4): content wins.
 */
export function alignStreamedContent(emitted: string, content: string): string {
  if (content.startsWith(emitted)) return content;
  const shown = emitted.trimStart();
  const shared = commonPrefixLength(shown, content);
  if (shared < Math.min(shown.trimEnd().length, content.length)) return content;
  return emitted + content.slice(shared);
}

function commonPrefixLength(left: string, right: string): number {
  let index = 0;
  while (index < left.length && index < right.length && left[index] === right[index]) index++;
  return index;
}
