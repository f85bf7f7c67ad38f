import type { Command } from 'commander';

/** Endpoint flags every model command shares. */
export interface EndpointFlags {
  provider?: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  timeout?: string;
  idleTimeout?: string;
  maxRetries?: string;
}

export interface ResolvedEndpoint {
  provider: string;
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** The default when nothing is configured: a local Ollama through its OpenAI-compatible route. */
const defaultBaseUrl = 'http://127.0.0.1:11434/v1';

export function addEndpointOptions(command: Command): Command {
  return command
    .option('--provider <name>', 'runner dialect (openai-compatible, openai, azure, …)')
    .option('--base-url <url>', 'endpoint base URL (env SPINE_BASE_URL)')
    .option('--model <id>', 'model id, or the deployment for Azure (env SPINE_MODEL)')
    .option('--api-key <key>', 'API key (env LLM_API_KEY)')
    .option('--timeout <ms>', 'total timeout per call in milliseconds')
    .option('--idle-timeout <ms>', 'longest silence between stream chunks in milliseconds')
    .option('--max-retries <n>', 'retries on connection errors, 408/409/429/5xx');
}

/** Flags first, then environment, then the local default. */
export function resolveEndpoint(
  flags: EndpointFlags,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedEndpoint {
  const apiKey = flags.apiKey ?? env.LLM_API_KEY;
  return {
    provider: flags.provider ?? env.SPINE_PROVIDER ?? 'openai-compatible',
    baseUrl: flags.baseUrl ?? env.SPINE_BASE_URL ?? defaultBaseUrl,
    model: flags.model ?? env.SPINE_MODEL ?? 'default',
    ...(apiKey ? { apiKey } : {}),
  };
}

/** Parses a non-negative integer flag, or leaves it unset. */
export function parseCount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new Error(`${flag} must be a non-negative integer, got ${value}`);
  return number;
}
