import type { Command } from 'commander';
import { SpineError } from '../core/spine-error.js';
import { defaultTimeouts } from '../llm/resilience/default-timeouts.js';

/** Endpoint flags every model command shares. */
export interface EndpointFlags {
  provider?: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  timeout?: string;
  firstByteTimeout?: string;
  idleTimeout?: string;
  maxRetries?: string;
  contextLength?: string;
}

/** The default when nothing is configured: a local Ollama through its OpenAI-compatible route. */
export const defaultBaseUrl = 'http://127.0.0.1:11434/v1';

export function addEndpointOptions(command: Command): Command {
  return command
    .option('--provider <name>', 'runner dialect (openai-compatible, openai, azure, …)')
    .option('--base-url <url>', 'endpoint base URL (env SPINE_BASE_URL)')
    .option('--model <id>', 'model id, or the deployment for Azure (env SPINE_MODEL)')
    .option('--api-key <key>', 'API key (env LLM_API_KEY)')
    .option(
      '--timeout <ms>',
      `the whole model call, retries included, in ms; 0 for none (default ${defaultTimeouts.timeoutMs})`,
    )
    .option(
      '--first-byte-timeout <ms>',
      `each attempt's wait for the response headers, in ms (default ${defaultTimeouts.firstByteTimeoutMs})`,
    )
    .option(
      '--idle-timeout <ms>',
      `longest silence between stream chunks, in ms (default ${defaultTimeouts.idleTimeoutMs})`,
    )
    .option('--max-retries <n>', 'retries on connection errors, 408/409/429/5xx')
    .option(
      '--context-length <n>',
      "the model's context window in tokens (trims history, checks each request)",
    );
}

/** Every runner needs a model name; guessing one only moves the error to the runner, worded worse. */
export function requireModel(model: string | undefined): string {
  if (model !== undefined && model.trim() !== '') return model;
  throw new SpineError({
    code: 'CONFIG_INVALID',
    message:
      'no model given: pass --model NAME (e.g. --model qwen3), set SPINE_MODEL, or name one in spine.yaml; ' +
      '`spine doctor` (with the same --base-url) lists the models the server offers',
  });
}

/** Parses an integer flag of at least `minimum` (0 unless said), or leaves it unset. */
export function parseCount(value: string | undefined, flag: string, minimum = 0): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum) {
    const wanted = minimum === 0 ? 'a non-negative integer' : `an integer of at least ${minimum}`;
    throw new SpineError({ code: 'CONFIG_INVALID', message: `${flag} must be ${wanted}, got ${value}` });
  }
  return number;
}
