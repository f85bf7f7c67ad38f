import type { ErrorCode } from '../../core/error-codes.js';
import { SpineError } from '../../core/spine-error.js';
import { isContextOverflow } from './is-context-overflow.js';
import { capMessage, type ErrorInfo, readErrorInfo } from './read-error-info.js';

const maxBodyLength = 4000;

const serverTypes = new Set([
  'server_error',
  'api_error',
  'unavailable_error',
  'internal_error',
  'overloaded_error',
]);
const rateLimitTypes = new Set(['rate_limit_exceeded', 'rate_limit_error', 'insufficient_quota']);
const authTypes = new Set([
  'authentication_error',
  'invalid_api_key',
  'permission_error',
  'permission_denied',
]);

/**
 * A runner's error body → SpineError. Shared by non-2xx responses, 200 bodies that are error objects and
 * errors inside a stream (where there is no meaningful status: the kind is then read from the error's own
 * numeric code or type). Context overflow wins over the status: llama.cpp and vLLM have sent it as a 500.
 */
export function classifyErrorBody(body: unknown, status?: number): SpineError {
  const info = readErrorInfo(body) ?? { message: capMessage(describeBody(body)) };
  const effectiveStatus = status ?? statusFromCode(info.providerCode);
  const { code, retryable } = chooseCode(info, effectiveStatus);
  const message = info.message !== '' ? info.message : defaultMessage(effectiveStatus);
  return new SpineError({ code, message, retryable, details: buildDetails(info, status, body) });
}

/**
 * The model's chat template refused the conversation (a Jinja `raise_exception`, as Mistral's and Gemma's do
 * when user and assistant turns do not alternate): the same request fails the same way, whatever the status
 * (older llama.cpp builds send a 500, RUNNER-QUIRKS §48).
 */
const templateRefusal = /roles must alternate|Jinja Exception|raise_exception/i;

function chooseCode(info: ErrorInfo, status: number | undefined): { code: ErrorCode; retryable: boolean } {
  if (isContextOverflow(info)) return { code: 'LLM_CONTEXT_OVERFLOW', retryable: false };
  if (templateRefusal.test(info.message)) return { code: 'LLM_HTTP_ERROR', retryable: false };
  if (status !== undefined) return chooseCodeByStatus(status);
  const kind = `${info.type ?? ''} ${typeof info.providerCode === 'string' ? info.providerCode : ''}`;
  const words = kind.split(' ');
  if (words.some((word) => authTypes.has(word))) return { code: 'LLM_AUTH_FAILED', retryable: false };
  if (words.some((word) => rateLimitTypes.has(word))) return { code: 'LLM_RATE_LIMITED', retryable: true };
  if (info.type === undefined || words.some((word) => serverTypes.has(word)))
    return { code: 'LLM_SERVER_ERROR', retryable: true };
  return { code: 'LLM_HTTP_ERROR', retryable: false };
}

/** The status policy of the issue and openai-node: 408, 409, 429 and 5xx may be retried. */
export function chooseCodeByStatus(status: number): { code: ErrorCode; retryable: boolean } {
  if (status === 401 || status === 403) return { code: 'LLM_AUTH_FAILED', retryable: false };
  if (status === 429) return { code: 'LLM_RATE_LIMITED', retryable: true };
  if (status >= 500) return { code: 'LLM_SERVER_ERROR', retryable: true };
  if (status === 408 || status === 409) return { code: 'LLM_HTTP_ERROR', retryable: true };
  return { code: 'LLM_HTTP_ERROR', retryable: false };
}

function statusFromCode(code: string | number | undefined): number | undefined {
  const value = typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : code;
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599
    ? value
    : undefined;
}

function buildDetails(info: ErrorInfo, status: number | undefined, body: unknown): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (status !== undefined) details.status = status;
  if (info.type !== undefined) details.type = info.type;
  if (info.providerCode !== undefined) details.providerCode = info.providerCode;
  if (info.promptTokens !== undefined) details.promptTokens = info.promptTokens;
  if (info.contextTokens !== undefined) details.contextTokens = info.contextTokens;
  details.body = capBody(typeof body === 'string' ? body : describeBody(body));
  return details;
}

function describeBody(body: unknown): string {
  if (typeof body === 'string') return describeTextBody(body);
  try {
    return JSON.stringify(body) ?? String(body);
  } catch {
    return String(body);
  }
}

/** An HTML page (a proxy's or a web server's 404) is named by its title, not dumped as markup. */
export function describeTextBody(text: string): string {
  if (!/^\s*(<!doctype html|<html)/i.test(text)) return text;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  return `an HTML page${title ? ` ("${title}")` : ''} instead of an API answer`;
}

export function capBody(text: string): string {
  return text.length > maxBodyLength ? `${text.slice(0, maxBodyLength)}…` : text;
}

function defaultMessage(status: number | undefined): string {
  return status === undefined ? 'the runner reported an error' : `the runner answered HTTP ${status}`;
}
