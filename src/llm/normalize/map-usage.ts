import type { Usage } from '../../core/types.js';

/**
 * Wire usage → Usage. Every field is optional on the wire (RUNNER-QUIRKS §59-62): OpenAI details
 * (`prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`), DeepSeek's top-level
 * `prompt_cache_hit_tokens`. llama.cpp's `timings` are used only when there is no usage object at all.
 */
export function mapUsage(wireUsage: unknown, latencyMs: number, timings?: unknown): Usage {
  if (isRecord(wireUsage)) return mapWireUsage(wireUsage, latencyMs);
  if (isRecord(timings)) return mapTimings(timings, latencyMs);
  return { promptTokens: null, completionTokens: null, totalTokens: null, latencyMs };
}

function mapWireUsage(wire: Record<string, unknown>, latencyMs: number): Usage {
  const promptTokens = readCount(wire.prompt_tokens) ?? readCount(wire.input_tokens);
  const completionTokens = readCount(wire.completion_tokens) ?? readCount(wire.output_tokens);
  const usage: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: readCount(wire.total_tokens) ?? sumCounts(promptTokens, completionTokens),
    latencyMs,
  };
  const cached =
    readDetail(wire.prompt_tokens_details, 'cached_tokens') ?? readCount(wire.prompt_cache_hit_tokens);
  if (cached !== null) usage.cachedTokens = cached;
  const reasoning = readDetail(wire.completion_tokens_details, 'reasoning_tokens');
  if (reasoning !== null) usage.reasoningTokens = reasoning;
  return usage;
}

// llama.cpp: `prompt_n` counts only the prompt tokens evaluated, `cache_n` the ones reused from the cache.
function mapTimings(timings: Record<string, unknown>, latencyMs: number): Usage {
  const evaluated = readCount(timings.prompt_n);
  const cached = readCount(timings.cache_n);
  const promptTokens = evaluated === null ? null : evaluated + (cached ?? 0);
  const completionTokens = readCount(timings.predicted_n);
  const usage: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: sumCounts(promptTokens, completionTokens),
    latencyMs,
  };
  if (cached !== null) usage.cachedTokens = cached;
  return usage;
}

/** True when the chunk or body carried anything usage could be read from. */
export function hasUsage(wireUsage: unknown, timings?: unknown): boolean {
  return isRecord(wireUsage) || isRecord(timings);
}

function readDetail(details: unknown, key: string): number | null {
  return isRecord(details) ? readCount(details[key]) : null;
}

function readCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function sumCounts(first: number | null, second: number | null): number | null {
  return first === null || second === null ? null : first + second;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
