import { readFile } from 'node:fs/promises';
import { SpineError } from '../core/spine-error.js';
import type { ChatMessage, ModelRequest } from '../core/types.js';

/** Body fields Spine maps itself; every other field of an OpenAI request body passes through as it is. */
const mappedFields = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'max_tokens',
  'temperature',
  'stream',
  'stream_options',
]);

/** Reads an OpenAI chat request body from a file or `-` (standard input). */
export async function readChatRequestFile(source: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = source === '-' ? await readStdin() : await readFile(source, 'utf8');
  } catch (error) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `cannot read request file ${source}`,
      cause: error,
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `request file ${source} is not valid JSON`,
      cause: error,
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `request file ${source} must hold a JSON object`,
    });
  }
  return body as Record<string, unknown>;
}

/** An OpenAI chat body (and an optional prompt appended as a user message) → Spine's ModelRequest. */
export function toModelRequest(body: Record<string, unknown>, prompt: string | undefined): ModelRequest {
  const messages = Array.isArray(body.messages) ? [...(body.messages as ChatMessage[])] : [];
  if (prompt !== undefined) messages.push({ role: 'user', content: prompt });
  if (messages.length === 0) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: 'nothing to send: give a PROMPT or a --request with messages',
    });
  }
  const extraBody = Object.fromEntries(Object.entries(body).filter(([key]) => !mappedFields.has(key)));
  return {
    messages,
    ...(typeof body.model === 'string' ? { model: body.model } : {}),
    ...(Array.isArray(body.tools) ? { tools: body.tools as ModelRequest['tools'] } : {}),
    ...(body.tool_choice !== undefined ? { toolChoice: body.tool_choice as ModelRequest['toolChoice'] } : {}),
    ...(typeof body.max_tokens === 'number' ? { maxTokens: body.max_tokens } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(Object.keys(extraBody).length > 0 ? { extraBody } : {}),
  };
}

async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of process.stdin) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
