import { describe, expect, it } from 'vitest';
import { hasUsage, mapUsage } from './map-usage.js';

describe('mapUsage', () => {
  it('reads OpenAI usage with details', () => {
    const wire = {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 2 },
    };
    expect(mapUsage(wire, 9)).toEqual({
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      cachedTokens: 4,
      reasoningTokens: 2,
      latencyMs: 9,
    });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens and computes a missing total", () => {
    expect(mapUsage({ prompt_tokens: 3, completion_tokens: 4, prompt_cache_hit_tokens: 2 }, 1)).toEqual({
      promptTokens: 3,
      completionTokens: 4,
      totalTokens: 7,
      cachedTokens: 2,
      latencyMs: 1,
    });
  });

  it('tolerates missing and malformed fields', () => {
    expect(mapUsage({ prompt_tokens: 'x', prompt_tokens_details: null }, 1)).toEqual({
      promptTokens: null,
      completionTokens: null,
      totalTokens: null,
      latencyMs: 1,
    });
    expect(mapUsage(undefined, 2)).toEqual({
      promptTokens: null,
      completionTokens: null,
      totalTokens: null,
      latencyMs: 2,
    });
  });

  it('uses llama.cpp timings only when there is no usage', () => {
    const timings = { prompt_n: 9, cache_n: 15, predicted_n: 5 };
    expect(mapUsage(undefined, 1, timings)).toEqual({
      promptTokens: 24,
      completionTokens: 5,
      totalTokens: 29,
      cachedTokens: 15,
      latencyMs: 1,
    });
    expect(mapUsage({ prompt_tokens: 1, completion_tokens: 1 }, 1, timings).promptTokens).toBe(1);
    expect(hasUsage(undefined, timings)).toBe(true);
    expect(hasUsage(undefined, undefined)).toBe(false);
  });
});
