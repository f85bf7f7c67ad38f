/**
 * The tool-call formats a model's `quirks.tool_call_format` may pin (README: the families): with one pinned, only
 * that family's markup is read from the text — faster, and nothing of another family is mistaken for a call.
 * `auto` (the default) reads every family.
 */
export const toolCallFormats = [
  'auto',
  'hermes',
  'qwen3-coder',
  'glm',
  'llama3',
  'pythonic',
  'mistral',
  'deepseek',
  'kimi',
  'harmony',
  'minimax',
  'functionary',
  'gemma',
  'granite',
  'nemotron',
  'command-r',
  'firefunction',
  'lfm2',
  'seed-oss',
  'internlm2',
  'apertus',
  'apriel',
  'json',
] as const;

export type ToolCallFormat = (typeof toolCallFormats)[number];

/** Calls found without a marker: fenced or bare JSON, bare Python-style lists, Functionary's `>>>`. */
export type UnmarkedFinder = 'fenced' | 'bare-json' | 'pythonic' | 'functionary';

interface FormatReading {
  dialects: readonly string[];
  unmarked: readonly UnmarkedFinder[];
}

const readings: Record<Exclude<ToolCallFormat, 'auto'>, FormatReading> = {
  hermes: { dialects: ['hermes <tool_call>', 'wrapped JSON', '<function name=…>'], unmarked: ['bare-json'] },
  'qwen3-coder': { dialects: ['hermes <tool_call>', '<function=…>'], unmarked: [] },
  glm: { dialects: ['hermes <tool_call>'], unmarked: [] },
  llama3: { dialects: ['llama <|python_tag|>', '<function=…>'], unmarked: ['bare-json'] },
  pythonic: { dialects: ['llama <|python_start|>'], unmarked: ['pythonic'] },
  mistral: { dialects: ['mistral [TOOL_CALLS]'], unmarked: [] },
  deepseek: { dialects: ['deepseek tool calls', 'deepseek DSML'], unmarked: [] },
  kimi: { dialects: ['kimi tool calls'], unmarked: [] },
  harmony: { dialects: ['harmony'], unmarked: [] },
  minimax: { dialects: ['minimax <minimax:tool_call>'], unmarked: [] },
  functionary: { dialects: ['<function=…>'], unmarked: ['functionary'] },
  gemma: { dialects: ['gemma <|tool_call>'], unmarked: ['fenced'] },
  granite: { dialects: ['granite <|tool_call|>'], unmarked: [] },
  nemotron: { dialects: ['nemotron <TOOLCALL>'], unmarked: [] },
  'command-r': { dialects: ['command-r action'], unmarked: [] },
  firefunction: { dialects: ['firefunction functools'], unmarked: [] },
  lfm2: { dialects: ['lfm2 tool call'], unmarked: [] },
  'seed-oss': { dialects: ['seed <seed:tool_call>'], unmarked: [] },
  internlm2: { dialects: ['internlm2 action'], unmarked: [] },
  apertus: { dialects: ['apertus tools'], unmarked: [] },
  apriel: { dialects: ['apriel <tool_calls>'], unmarked: [] },
  json: { dialects: [], unmarked: ['fenced', 'bare-json'] },
};

const everything: FormatReading = {
  dialects: [],
  unmarked: ['fenced', 'bare-json', 'pythonic', 'functionary'],
};

/** What a format reads; `dialects` empty with `auto` means every marked family. */
export function readingOf(format: ToolCallFormat): { allDialects: boolean } & FormatReading {
  return format === 'auto'
    ? { allDialects: true, ...everything }
    : { allDialects: false, ...readings[format] };
}
