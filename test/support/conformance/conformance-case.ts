import { readdirSync, readFileSync } from 'node:fs';
import type { ChatMessage, ToolSpec } from '../../../src/core/types.js';
import type { ApiType } from '../../../src/llm/providers/presets.js';

/**
 * One conformance case: a runner's wire answer and the normalized output Spine must make of it
 * (test/data/conformance/README.md describes the format).
 */
export interface ConformanceCase {
  id: string;
  /** RUNNER-QUIRKS § number (or DECISIONS §) and a one-line description. */
  quirk: string;
  /** Where the wire shape comes from. */
  source: string;
  note?: string;
  client: { provider: string; apiType: ApiType; model?: string };
  request: {
    messages: ChatMessage[];
    /** Tool names from test/data/conformance/tools.json, or full tool specs. */
    tools?: Array<string | ToolSpec>;
    stream: boolean;
    maxTokens?: number;
  };
  wire: CaseWire;
  expect: CaseExpectation;
}

export interface CaseWire {
  status: number;
  headers?: Record<string, string>;
  /** A JSON value, or the exact body text. */
  body?: unknown;
  /** The streamed body in pieces: raw text, an SSE event, or an NDJSON line. */
  chunks?: WireChunk[];
}

export type WireChunk = string | { data: unknown; event?: string } | { json: unknown };

export interface CaseExpectation {
  response?: ExpectedResponse;
  /** `retryable` is compared only when the case names it. */
  error?: { code: string; messageIncludes?: string; retryable?: boolean };
  /** Streamed cases: event types in order (runs of one type collapsed) and the text they carried. */
  events?: { types?: string[]; text?: string; reasoning?: string };
}

export interface ExpectedResponse {
  content?: string;
  reasoning?: string | null;
  /** `id` is compared only when the wire gave one. */
  toolCalls?: Array<{ id?: string; name: string; arguments: Record<string, unknown> }>;
  incompleteToolCalls?: Array<{ id?: string; name: string; rawArguments?: string }>;
  finishReason?: string;
  usage?: Record<string, unknown>;
  /** Repair kinds that must be recorded; `[]` means nothing may have been repaired. */
  repairs?: string[];
}

const dataDir = new URL('../../data/conformance/', import.meta.url);

/** Every case of every corpus file, with the file it came from. */
export function loadConformanceCases(): Array<ConformanceCase & { file: string }> {
  const files = readdirSync(dataDir).filter((name) => name.endsWith('.json') && name !== 'tools.json');
  return files.sort().flatMap((file) => {
    const parsed = JSON.parse(readFileSync(new URL(file, dataDir), 'utf8')) as { cases: ConformanceCase[] };
    return parsed.cases.map((kase) => ({ ...kase, file }));
  });
}

/** The tool catalog cases name their tools from. */
export function loadToolCatalog(): Record<
  string,
  { description: string; parameters: Record<string, unknown> }
> {
  return JSON.parse(readFileSync(new URL('tools.json', dataDir), 'utf8'));
}

export function resolveTools(tools: Array<string | ToolSpec> | undefined): ToolSpec[] | undefined {
  if (tools === undefined) return undefined;
  const catalog = loadToolCatalog();
  return tools.map((tool) => {
    if (typeof tool !== 'string') return tool;
    const entry = catalog[tool];
    if (entry === undefined) throw new Error(`conformance: no tool "${tool}" in tools.json`);
    return { type: 'function', function: { name: tool, ...entry } };
  });
}
