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

/**
 * The prompt piped in (`echo hi | spine complete`), or undefined when standard input is a terminal or empty.
 * Only read when no PROMPT argument was given, so a caller whose stdin never closes is not kept waiting.
 */
export async function readPromptFromStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const text = (await readStdin()).replace(/\r?\n$/, '');
  return text.trim() === '' ? undefined : text;
}

/** The type each mapped field must have; a request file that gets one wrong is refused, not half-read. */
const fieldChecks: Array<[field: string, expected: string, ok: (value: unknown) => boolean]> = [
  ['messages', 'an array of chat messages', (value) => Array.isArray(value) && value.every(isMessage)],
  ['tools', 'an array of tool definitions', Array.isArray],
  ['max_tokens', 'a positive integer', (value) => Number.isInteger(value) && (value as number) > 0],
  ['temperature', 'a number', (value) => typeof value === 'number'],
  ['model', 'a string', (value) => typeof value === 'string'],
];

function isMessage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const role = (value as { role?: unknown }).role;
  return (
    role === 'system' || role === 'user' || role === 'assistant' || role === 'tool' || role === 'developer'
  );
}

function checkFieldTypes(body: Record<string, unknown>): void {
  for (const [field, expected, ok] of fieldChecks) {
    const value = body[field];
    if (value === undefined || ok(value)) continue;
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: `request body: "${field}" must be ${expected}, got ${describeValue(value)}`,
      details: { field },
    });
  }
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array with an entry that is not one';
  if (value === null) return 'null';
  return `a ${typeof value} (${JSON.stringify(value)?.slice(0, 40)})`;
}

/** An OpenAI chat body (and an optional prompt appended as a user message) → Spine's ModelRequest. */
export function toModelRequest(body: Record<string, unknown>, prompt: string | undefined): ModelRequest {
  checkFieldTypes(body);
  const messages = Array.isArray(body.messages) ? [...(body.messages as ChatMessage[])] : [];
  if (prompt !== undefined) messages.push({ role: 'user', content: prompt });
  if (messages.length === 0) {
    throw new SpineError({
      code: 'CONFIG_INVALID',
      message: 'nothing to send: give a PROMPT, pipe one in on stdin, or a --request with messages',
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
