import { stableStringify } from '../core/stable-stringify.js';
import type { ToolResult } from '../core/types.js';

/**
 * Counts failing calls by fingerprint (tool name + stable-stringified arguments). The same failing call
 * `limit` times is a loop; a success of that same call clears its count.
 */
export class LoopDetector {
  readonly #failures = new Map<string, number>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Records one result; returns the repeat count when the call has now failed `limit` times. */
  record(name: string, args: unknown, result: ToolResult): number | undefined {
    const fingerprint = `${name}\u0000${stableStringify(args)}`;
    if (result.ok) {
      this.#failures.delete(fingerprint);
      return undefined;
    }
    const count = (this.#failures.get(fingerprint) ?? 0) + 1;
    this.#failures.set(fingerprint, count);
    return count >= this.#limit ? count : undefined;
  }
}
