import { appendFile, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactSecrets } from '../../core/secrets.js';
import type { ChatMessage } from '../../core/types.js';
import { temporaryNameFor } from '../../tools/fs/stale-temporaries.js';

/** A workflow run's conversation: USER_INPUT, assistant and tool messages, one JSON line each. */
export const conversationLogFileName = 'conversation.jsonl';

/**
 * Appends messages to the log. The shells composed for each call are never among them (decision 18): the
 * log is context for a resumed run, not its position, which the state file alone gives.
 */
export async function appendConversation(runDir: string, messages: readonly ChatMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const lines = messages.map((message) => `${JSON.stringify(message)}\n`).join('');
  await appendFile(join(runDir, conversationLogFileName), redactSecrets(lines));
}

/**
 * The readable part of the log: lines up to the first that does not parse (a line torn by a kill), and
 * without an unanswered tail — an assistant message whose tool calls lack their results would make every
 * later request invalid. A missing log is an empty conversation. When something had to be left out, the log
 * is rewritten to what was kept, so that what is appended next follows a clean history.
 */
export async function readConversation(runDir: string): Promise<ChatMessage[]> {
  const path = join(runDir, conversationLogFileName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const read: ChatMessage[] = [];
  for (const line of lines) {
    const message = parseMessage(line);
    if (message === undefined) break;
    read.push(message);
  }
  const messages = dropUnansweredTail(read);
  if (messages.length < lines.length) await rewriteConversation(path, messages);
  return messages;
}

async function rewriteConversation(path: string, messages: readonly ChatMessage[]): Promise<void> {
  const temporary = join(path, '..', temporaryNameFor(conversationLogFileName));
  try {
    await writeFile(temporary, messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

function parseMessage(line: string): ChatMessage | undefined {
  try {
    const value = JSON.parse(line) as { role?: unknown };
    return typeof value === 'object' && value !== null && typeof value.role === 'string'
      ? (value as ChatMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

function dropUnansweredTail(messages: ChatMessage[]): ChatMessage[] {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || (message.tool_calls?.length ?? 0) === 0) continue;
    const answered = new Set(
      messages
        .slice(index + 1)
        .filter((later) => later.role === 'tool')
        .map((later) => (later as { tool_call_id: string }).tool_call_id),
    );
    const complete = message.tool_calls!.every((call) => answered.has(call.id));
    return complete ? messages : messages.slice(0, index);
  }
  return messages;
}
