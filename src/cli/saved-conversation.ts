import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactSecrets } from '../core/secrets.js';
import { SpineError } from '../core/spine-error.js';
import type { ChatMessage } from '../core/types.js';

/** The messages of an `ask` run, kept in its folder so that `spine ask --continue RUN` can carry on. */
export const conversationFileName = 'conversation.json';

/** Written whole to a temporary file and renamed, so a crash leaves the old conversation or the new one. */
export async function saveConversation(runDir: string, messages: readonly ChatMessage[]): Promise<void> {
  const path = join(runDir, conversationFileName);
  const temporary = `${path}.${randomBytes(6).toString('hex')}.spine-tmp`;
  await writeFile(temporary, `${redactSecrets(JSON.stringify({ version: 1, messages }, null, 1))}\n`);
  await rename(temporary, path);
}

export async function loadConversation(runDir: string): Promise<ChatMessage[]> {
  const path = join(runDir, conversationFileName);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SpineError({
      code: 'ENOENT',
      message: `${runDir} has no ${conversationFileName}: only runs of \`spine ask\` can be continued`,
      cause: error,
    });
  }
  let saved: { messages?: unknown };
  try {
    saved = JSON.parse(text) as { messages?: unknown };
  } catch (error) {
    throw new SpineError({ code: 'CONFIG_INVALID', message: `${path} is not valid JSON`, cause: error });
  }
  if (!Array.isArray(saved.messages)) {
    throw new SpineError({ code: 'CONFIG_INVALID', message: `${path}: no "messages" array` });
  }
  return saved.messages as ChatMessage[];
}
