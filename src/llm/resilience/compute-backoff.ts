/** Exponential backoff with full jitter: a uniform wait in [0, min(cap, base·2^attempt)). `attempt` is 0-based. */
export function computeExponentialBackoff(
  attempt: number,
  options: { baseDelayMs: number; maxDelayMs: number },
  random: () => number,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** Linear backoff (step, 2·step, 3·step, …) for bodies that did not parse (spec 004). `attempt` is 0-based. */
export function computeLinearBackoff(attempt: number, stepMs: number): number {
  return stepMs * (attempt + 1);
}
