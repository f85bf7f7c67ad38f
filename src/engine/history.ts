import type { ChatMessage } from '../core/types.js';
import { estimateMessageTokens } from './estimate-message-tokens.js';

export interface HistoryOptions {
  /** The model's context window in tokens; no token trimming without it (until an overflow teaches one). */
  contextLength?: number;
  /** Tokens kept free for the answer (default 1024). */
  answerTokens?: number;
  /** Most messages sent in one request, pinned ones included. */
  maxMessages?: number;
}

/** What one request sends. `rawTokens` is the uncalibrated estimate, for `calibrate()` afterwards. */
export interface HistoryWindow {
  messages: ChatMessage[];
  estimatedTokens: number;
  rawTokens: number;
  /** Messages dropped from the window by this call. */
  dropped: number;
}

/** Numbers a runner may put in a context-overflow error (llama.cpp `n_ctx`, `n_prompt_tokens`, …). */
export interface OverflowNumbers {
  contextLength?: number;
  promptTokens?: number;
}

const minimumRatio = 0.2;
const maximumRatio = 5;
const smoothing = 0.3;

/**
 * The conversation of one run and the window of it that fits the model. Trimming drops the oldest
 * messages first, an assistant `tool_calls` message always together with its tool messages, and never
 * the leading system messages, the task's first user message, or the newest message (group). Dropping is
 * a cursor moving forward over the transcript, and every message's estimate is measured once, so a turn
 * costs time in proportion to what it sends, not to what was ever said.
 */
export class MessageHistory {
  readonly #messages: ChatMessage[] = [];
  readonly #raw: number[] = [];
  /** Indexes that are never dropped, ascending. */
  readonly #pinned: number[] = [];
  #seenNonSystem = false;
  #seenUser = false;
  /** Messages before the cursor are dropped unless pinned. */
  #cursor = 0;
  #keptRaw = 0;
  #keptCount = 0;
  #ratio = 1;
  #calibrated = false;
  #extraRaw = 0;
  #learnedContextLength: number | undefined;
  readonly #options: HistoryOptions;

  constructor(messages: readonly ChatMessage[] = [], options: HistoryOptions = {}) {
    this.#options = options;
    this.append(...messages);
  }

  /** The whole transcript, dropped messages included. */
  get messages(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** The learned tokens-per-estimate ratio (1 until the runner reports prompt tokens). */
  get ratio(): number {
    return this.#ratio;
  }

  append(...messages: ChatMessage[]): void {
    for (const message of messages) {
      const index = this.#messages.length;
      const raw = estimateMessageTokens(message);
      this.#messages.push(message);
      this.#raw.push(raw);
      this.#keptRaw += raw;
      this.#keptCount += 1;
      if (this.#isPinned(message)) this.#pinned.push(index);
    }
  }

  /** Tokens the tool list adds to every request (uncalibrated estimate). */
  setFixedOverhead(rawTokens: number): void {
    this.#extraRaw = rawTokens;
  }

  /** The current window's estimate in calibrated tokens. */
  estimateTokens(): number {
    return Math.ceil((this.#keptRaw + this.#extraRaw) * this.#ratio);
  }

  /**
   * After `window()`: the figures when even the trimmed window (the pinned messages and the tool definitions)
   * does not fit the context, so the request would overflow before the model read a word; else undefined.
   */
  overflowBeforeSending():
    | { estimatedTokens: number; toolTokens: number; budget: number; contextLength: number }
    | undefined {
    const budget = this.#budget();
    if (budget === undefined || this.estimateTokens() <= budget) return undefined;
    const contextLength = Math.min(
      this.#options.contextLength ?? Infinity,
      this.#learnedContextLength ?? Infinity,
    );
    return {
      estimatedTokens: this.estimateTokens(),
      toolTokens: Math.ceil(this.#extraRaw * this.#ratio),
      budget,
      contextLength,
    };
  }

  /** Trims to the budget and to `maxMessages`, then returns the messages to send. */
  window(): HistoryWindow {
    const dropped = this.#trimTo(this.#budget());
    return this.#currentWindow(dropped);
  }

  /** Learns the tokens-per-estimate ratio from a request's reported prompt tokens. */
  calibrate(promptTokens: number | null | undefined, rawTokens: number): void {
    if (promptTokens == null || promptTokens <= 0 || rawTokens <= 0) return;
    const observed = clamp(promptTokens / rawTokens, minimumRatio, maximumRatio);
    this.#ratio = this.#calibrated ? this.#ratio * (1 - smoothing) + observed * smoothing : observed;
    this.#calibrated = true;
  }

  /**
   * Trims harder after the runner refused the prompt: numbers from the error teach the real window and
   * ratio; without them the window shrinks to three quarters of its estimate. Returns messages dropped.
   */
  trimAfterOverflow(numbers: OverflowNumbers, sentRawTokens: number): number {
    if (numbers.contextLength !== undefined && numbers.contextLength > 0) {
      this.#learnedContextLength = Math.min(this.#learnedContextLength ?? Infinity, numbers.contextLength);
    }
    if (numbers.promptTokens !== undefined && numbers.promptTokens > 0 && sentRawTokens > 0) {
      this.#ratio = clamp(numbers.promptTokens / sentRawTokens, minimumRatio, maximumRatio);
      this.#calibrated = true;
    }
    const shrunk = Math.floor(this.estimateTokens() * 0.75);
    return this.#trimTo(Math.min(this.#budget() ?? Infinity, shrunk));
  }

  #isPinned(message: ChatMessage): boolean {
    if (message.role === 'system' && !this.#seenNonSystem) return true;
    this.#seenNonSystem = true;
    if (message.role === 'user' && !this.#seenUser) {
      this.#seenUser = true;
      return true;
    }
    return false;
  }

  #budget(): number | undefined {
    const contextLength = Math.min(
      this.#options.contextLength ?? Infinity,
      this.#learnedContextLength ?? Infinity,
    );
    if (!Number.isFinite(contextLength)) return undefined;
    // Without a set answer size, keep a quarter of a small context for it (at most 1,024 tokens).
    const answer = this.#options.answerTokens ?? Math.min(1024, Math.floor(contextLength / 4));
    return Math.max(0, contextLength - answer);
  }

  #trimTo(budget: number | undefined): number {
    const maxMessages = this.#options.maxMessages ?? Infinity;
    let dropped = 0;
    while ((budget !== undefined && this.estimateTokens() > budget) || this.#keptCount > maxMessages) {
      const count = this.#dropOldestGroup();
      if (count === 0) break;
      dropped += count;
    }
    return dropped;
  }

  #dropOldestGroup(): number {
    let start = this.#cursor;
    let pinnedAt = this.#firstPinnedFrom(start);
    while (pinnedAt === start) {
      start += 1;
      pinnedAt = this.#firstPinnedFrom(start);
    }
    const end = this.#groupEnd(start);
    // The newest group is what the model must answer: it is never dropped.
    if (start >= this.#messages.length || end >= this.#messages.length) return 0;
    for (let index = start; index < end; index += 1) this.#keptRaw -= this.#raw[index] ?? 0;
    this.#keptCount -= end - start;
    this.#cursor = end;
    return end - start;
  }

  /** The end (exclusive) of the group starting at `start`: an assistant with tool_calls takes its tool messages. */
  #groupEnd(start: number): number {
    const first = this.#messages[start];
    let end = start + 1;
    if (first?.role === 'assistant' && (first.tool_calls?.length ?? 0) > 0) {
      while (this.#messages[end]?.role === 'tool') end += 1;
    }
    return end;
  }

  #firstPinnedFrom(index: number): number | undefined {
    for (const pinned of this.#pinned) if (pinned >= index) return pinned;
    return undefined;
  }

  #currentWindow(dropped: number): HistoryWindow {
    const messages: ChatMessage[] = [];
    for (const pinned of this.#pinned) {
      if (pinned >= this.#cursor) break;
      messages.push(this.#messages[pinned] as ChatMessage);
    }
    for (let index = this.#cursor; index < this.#messages.length; index += 1) {
      messages.push(this.#messages[index] as ChatMessage);
    }
    const rawTokens = this.#keptRaw + this.#extraRaw;
    return { messages, estimatedTokens: Math.ceil(rawTokens * this.#ratio), rawTokens, dropped };
  }
}

function clamp(value: number, minimum: number, maximum: number): number {
  return Math.min(maximum, Math.max(minimum, value));
}
