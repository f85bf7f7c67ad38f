/**
 * Readers for the Chat Completions wire objects (chunks and bodies). The wire is untrusted JSON, so these read
 * fields defensively instead of declaring a shape: any field may be missing, null or of another type.
 */

export type WireRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is WireRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The choice Spine reads: index 0 (or the first without an index). `choices: []` (the usage chunk, Azure's
 * `prompt_filter_results` chunk) and a missing `choices` give undefined (RUNNER-QUIRKS §18, §64).
 */
export function readPrimaryChoice(choices: unknown): WireRecord | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices) {
    if (!isRecord(choice)) continue;
    if (choice.index === undefined || choice.index === null || choice.index === 0) return choice;
  }
  return undefined;
}

export type ReasoningField = 'reasoning_content' | 'reasoning' | 'thinking';

/** Reasoning sent beside the content: `reasoning_content ?? reasoning ?? thinking` (RUNNER-QUIRKS §35). */
export function readReasoningField(source: WireRecord): { field: ReasoningField; text: string } | undefined {
  if (typeof source.reasoning_content === 'string' && source.reasoning_content !== '')
    return { field: 'reasoning_content', text: source.reasoning_content };
  if (typeof source.reasoning === 'string' && source.reasoning !== '')
    return { field: 'reasoning', text: source.reasoning };
  if (typeof source.thinking === 'string' && source.thinking !== '')
    return { field: 'thinking', text: source.thinking };
  return undefined;
}

/** The model name, ignoring the empty one on Azure's filter chunks. */
export function readModel(source: WireRecord): string | undefined {
  return typeof source.model === 'string' && source.model !== '' ? source.model : undefined;
}

/** True when a body or chunk is an error object rather than an answer (HTTP 200 errors, RUNNER-QUIRKS §22, §57). */
export function isErrorObject(source: WireRecord): boolean {
  return source.error !== undefined && source.error !== null;
}
