import { stableStringify } from '../../../core/stable-stringify.js';

export interface ToolCallIdSource {
  position: number;
  name: string;
  rawArguments: string;
  responseKey?: string;
}

/**
 * A stable id for a call the runner sent without one (DECISIONS.md §3): derived from the position and the
 * call's content, never from a clock or a random source, so normalizing the same response twice gives the
 * same ids; the position keeps two identical calls in one response apart.
 */
export function generateToolCallId(source: ToolCallIdSource): string {
  const text = stableStringify([source.responseKey ?? '', source.position, source.name, source.rawArguments]);
  return `call_${hashText(text)}`;
}

// cyrb53: a small, well-mixed 53-bit string hash; pure JS so this module stays free of Node-only imports.
function hashText(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const value = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return value.toString(16).padStart(14, '0');
}
