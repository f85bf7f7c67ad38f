import type { Usage } from '../../../core/types.js';
import { isRecord } from '../../tool-calls/repair/parse-tool-arguments.js';

/**
 * The Responses `usage` object → Usage (RUNNER-QUIRKS §65): `input_tokens`, `output_tokens`, `total_tokens`,
 * `input_tokens_details.cached_tokens`, `output_tokens_details.reasoning_tokens`; every field may be missing.
 */
export function readResponsesUsage(wire: unknown, latencyMs: number): Usage {
  const usage: Usage = { promptTokens: null, completionTokens: null, totalTokens: null, latencyMs };
  if (!isRecord(wire)) return usage;
  usage.promptTokens = readCount(wire.input_tokens);
  usage.completionTokens = readCount(wire.output_tokens);
  usage.totalTokens =
    readCount(wire.total_tokens) ??
    (usage.promptTokens === null || usage.completionTokens === null
      ? null
      : usage.promptTokens + usage.completionTokens);
  const cached = readDetail(wire.input_tokens_details, 'cached_tokens');
  if (cached !== null) usage.cachedTokens = cached;
  const reasoning = readDetail(wire.output_tokens_details, 'reasoning_tokens');
  if (reasoning !== null) usage.reasoningTokens = reasoning;
  return usage;
}

function readDetail(details: unknown, key: string): number | null {
  return isRecord(details) ? readCount(details[key]) : null;
}

function readCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}
