import { findJsonValueEnd } from '../repair/find-json-value-end.js';
import { parseCallBody } from './parse-call-body.js';
import { parseFunctionTag } from './parse-function-tag.js';
import { readInvokeBlocks } from './parse-tagged-parameters.js';
import { readHarmonyMessages } from './read-harmony-messages.js';
import type { TextCallSpan } from './text-call-span.js';
import { createTextToolCall, type TextToolCallWire } from './text-tool-call-wire.js';

const wrapperTags = ['tool', 'response', 'JSON', 'function_call'];

/** Reads the calls of one family from its marker at `start`; `calls` empty when the body is not a named call. */
type MarkerReader = (
  text: string,
  start: number,
  marker: string,
  toolNames: readonly string[],
) => TextCallSpan;

interface MarkerFamily {
  dialect: string;
  /** Strings that open a call of this family wherever they stand. */
  markers: readonly string[];
  read: MarkerReader;
}

// Each family as its chat template writes it; the sources are the runners' own parsers: llama.cpp
// `common/chat.cpp` (`common_chat_parse_*`), vLLM `entrypoints/openai/tool_parsers/*_tool_parser.py`, Ollama
// `model/parsers/`. Fixed strings only: the streaming hold-back must recognise every one of them split anywhere.
const families: readonly MarkerFamily[] = [
  // Hermes 2 Pro, Qwen 2.5/3, GLM 4.5+ and Qwen3-Coder inside (hermes_tool_parser.py, glm4_moe_tool_parser.py,
  // qwen3coder_tool_parser.py; common_chat_parse_hermes_2_pro / _glm_4_5 / _qwen3_coder_xml).
  {
    dialect: 'hermes <tool_call>',
    markers: ['<tool_call>'],
    read: blockReader(['</tool_call>'], '<tool_call>'),
  },
  // Mistral / Ministral / Devstral (mistral_tool_parser.py; common_chat_parse_mistral_nemo / _magistral).
  { dialect: 'mistral [TOOL_CALLS]', markers: ['[TOOL_CALLS]'], read: readMistralCalls },
  // Llama 3.1 built-ins and JSON after <|python_tag|> (llama_tool_parser.py; common_chat_parse_llama_3_1).
  {
    dialect: 'llama <|python_tag|>',
    markers: ['<|python_tag|>'],
    read: blockReader(['<|eom_id|>', '<|eot_id|>']),
  },
  // Llama 4 pythonic calls (llama4_pythonic_tool_parser.py).
  { dialect: 'llama <|python_start|>', markers: ['<|python_start|>'], read: blockReader(['<|python_end|>']) },
  // Functionary v3.1 and Llama 3.1's <function=…> (common_chat_parse_functionary_v3_1_llama_3_1).
  { dialect: '<function=…>', markers: ['<function='], read: readFunctionEquals },
  // Legacy Hermes-style `<function name="x">{…}</function>`.
  { dialect: '<function name=…>', markers: ['<function name="'], read: readFunctionNamed },
  // DeepSeek R1 / V3 / V3.1 (deepseekv3_tool_parser.py, deepseekv31_tool_parser.py; common_chat_parse_deepseek_r1 / _v3_1).
  {
    dialect: 'deepseek tool calls',
    markers: ['<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', '<|tool▁calls▁begin|>'],
    read: readDeepSeekCalls,
  },
  // DeepSeek V3.2 DSML (common_chat_parse_deepseek_v3_2).
  { dialect: 'deepseek DSML', markers: ['<｜DSML｜function_calls>'], read: readDsmlCalls },
  // Kimi K2 (kimi_k2_tool_parser.py; common_chat_parse_kimi_k2).
  {
    dialect: 'kimi tool calls',
    markers: ['<|tool_calls_section_begin|>', '<|tool_call_begin|>'],
    read: readKimiCalls,
  },
  // MiniMax M2 (minimax_m2_tool_parser.py; common_chat_parse_minimax_m2).
  {
    dialect: 'minimax <minimax:tool_call>',
    markers: ['<minimax:tool_call>'],
    read: (text, start, marker) => {
      const block = readBlock(text, start, marker, ['</minimax:tool_call>']);
      return {
        ...block.span,
        dialect: 'minimax <minimax:tool_call>',
        calls: readInvokeBlocks(block.body),
        fixes: [],
      };
    },
  },
  // Seed-OSS (seed_oss_tool_parser.py; common_chat_parse_seed_oss).
  {
    dialect: 'seed <seed:tool_call>',
    markers: ['<seed:tool_call>'],
    read: blockReader(['</seed:tool_call>']),
  },
  // Granite 3.x (granite_tool_parser.py; common_chat_parse_granite): a JSON list after the token.
  { dialect: 'granite <|tool_call|>', markers: ['<|tool_call|>'], read: jsonAfterMarker },
  // Gemma 4 (common_chat_parse_gemma4): `<|tool_call>call:name{k:<|"|>v<|"|>}<tool_call|>`.
  { dialect: 'gemma <|tool_call>', markers: ['<|tool_call>'], read: readGemmaCalls },
  // Nemotron (common_chat_parse_nemotron_v2), Command R7B (common_chat_parse_command_r7b), LFM2
  // (common_chat_parse_lfm2), Apriel (common_chat_parse_apriel_1_5), Apertus (common_chat_parse_apertus),
  // InternLM2 (internlm2_tool_parser.py), xLAM-style `<tool_calls>`.
  { dialect: 'nemotron <TOOLCALL>', markers: ['<TOOLCALL>'], read: blockReader(['</TOOLCALL>']) },
  { dialect: 'command-r action', markers: ['<|START_ACTION|>'], read: blockReader(['<|END_ACTION|>']) },
  { dialect: 'lfm2 tool call', markers: ['<|tool_call_start|>'], read: blockReader(['<|tool_call_end|>']) },
  { dialect: 'apriel <tool_calls>', markers: ['<tool_calls>'], read: blockReader(['</tool_calls>']) },
  { dialect: 'apertus tools', markers: ['<|tools_prefix|>'], read: blockReader(['<|tools_suffix|>']) },
  {
    dialect: 'internlm2 action',
    markers: ['<|action_start|><|plugin|>'],
    read: blockReader(['<|action_end|>']),
  },
  // FireFunction v2 (common_chat_parse_firefunction_v2): `functools[{…}]`.
  { dialect: 'firefunction functools', markers: ['functools['], read: readFunctools },
  // GPT-OSS harmony messages (see read-harmony-messages.ts).
  {
    dialect: 'harmony',
    markers: ['<|channel|>', '<|start|>assistant'],
    read: (text, start) => readHarmonyMessages(text, start),
  },
  // Older Hermes-style wrappers around a JSON call (<tool>, <response>, <JSON>, <function_call>): the
  // tags are ordinary words, so their JSON counts only when every call names an offered tool.
  { dialect: 'wrapped JSON', markers: wrapperTags.map((tag) => `<${tag}>`), read: readWrappedJson },
];

function readWrappedJson(
  text: string,
  start: number,
  marker: string,
  toolNames: readonly string[],
): TextCallSpan {
  const block = readBlock(text, start, marker, [`</${marker.slice(1)}`]);
  const body = parseCallBody(block.body.trim().replace(/^```\w*\s*|\s*```$/g, ''), toolNames);
  const known = body.calls.length > 0 && body.calls.every((call) => toolNames.includes(call.function.name));
  return { ...block.span, dialect: 'wrapped JSON', calls: known ? body.calls : [], fixes: body.fixes };
}

/** Markers that announce a tool call whatever follows (RUNNER-QUIRKS §24-27). */
export const toolCallMarkers: readonly string[] = families.flatMap((family) => family.markers);

const familyByMarker = new Map(
  families.flatMap((family) => family.markers.map((marker) => [marker, family])),
);

/**
 * Closing tags a model may leave without their opening one (`{…}</tool_call>`, a `[/TOOL_CALLS]` after the
 * arguments): removed when they stand right after a call's span.
 */
export const strayClosers = [
  '</tool_call>',
  '[/TOOL_CALLS]',
  '</tool_calls>',
  '<|python_end|>',
  '<|eom_id|>',
  '<|eot_id|>',
  '</seed:tool_call>',
  '</minimax:tool_call>',
  '<｜tool▁calls▁end｜>',
  '<|tool_calls_section_end|>',
];

/** Every marked call in the content, in order; markers are read left to right and never overlap. */
export function findMarkedCalls(content: string, toolNames: readonly string[] = []): TextCallSpan[] {
  const spans: TextCallSpan[] = [];
  let cursor = 0;
  while (cursor < content.length) {
    const next = findNextMarker(content, cursor);
    if (next === undefined) break;
    const span = familyByMarker.get(next.marker)!.read(content, next.at, next.marker, toolNames);
    spans.push(span);
    cursor = Math.max(span.end, next.at + next.marker.length);
  }
  return spans;
}

function findNextMarker(content: string, from: number): { marker: string; at: number } | undefined {
  let best: { marker: string; at: number } | undefined;
  for (const marker of toolCallMarkers) {
    const at = content.indexOf(marker, from);
    if (
      at !== -1 &&
      (best === undefined || at < best.at || (at === best.at && marker.length > best.marker.length))
    )
      best = { marker, at };
  }
  return best;
}

interface Block {
  body: string;
  closed: boolean;
  span: Pick<TextCallSpan, 'start' | 'end'>;
}

/** The text from after `marker` to the first closing tag (or to `stopAt`, the next opening, or the end). */
function readBlock(
  text: string,
  start: number,
  marker: string,
  closes: readonly string[],
  stopAt?: string,
): Block {
  const bodyStart = start + marker.length;
  let close: { at: number; tag: string } | undefined;
  for (const tag of closes) {
    const at = text.indexOf(tag, bodyStart);
    if (at !== -1 && (close === undefined || at < close.at)) close = { at, tag };
  }
  const next = stopAt === undefined ? -1 : text.indexOf(stopAt, bodyStart);
  if (close !== undefined && (next === -1 || close.at < next)) {
    return {
      body: text.slice(bodyStart, close.at),
      closed: true,
      span: { start, end: close.at + close.tag.length },
    };
  }
  const bodyEnd = next === -1 ? text.length : next;
  return { body: text.slice(bodyStart, bodyEnd), closed: false, span: { start, end: bodyEnd } };
}

/** A family whose body is any of the call syntaxes `parseCallBody` reads. */
function blockReader(closes: readonly string[], stopAt?: string): MarkerReader {
  return (text, start, marker, toolNames) => {
    const block = readBlock(text, start, marker, closes, stopAt);
    const body = parseCallBody(block.body, toolNames);
    const fixes = block.closed || closes.length === 0 ? body.fixes : [...body.fixes, `unclosed ${marker}`];
    return {
      ...block.span,
      dialect: familyByMarker.get(marker)?.dialect ?? marker,
      calls: body.calls,
      fixes,
    };
  };
}

function jsonAfterMarker(text: string, start: number, marker: string): TextCallSpan {
  const valueStart = skipSpace(text, start + marker.length);
  const valueEnd = /[[{]/.test(text[valueStart] ?? '') ? findJsonValueEnd(text, valueStart) : -1;
  const end = valueEnd === -1 ? text.length : valueEnd;
  const body = parseCallBody(text.slice(valueStart, end));
  return { start, end, dialect: 'granite <|tool_call|>', calls: body.calls, fixes: body.fixes };
}

function readFunctools(text: string, start: number, marker: string): TextCallSpan {
  const valueStart = start + marker.length - 1;
  const valueEnd = findJsonValueEnd(text, valueStart);
  const end = valueEnd === -1 ? text.length : valueEnd;
  const body = parseCallBody(text.slice(valueStart, end));
  return { start, end, dialect: 'firefunction functools', calls: body.calls, fixes: body.fixes };
}

function readFunctionEquals(text: string, start: number): TextCallSpan {
  const parsed = parseFunctionTag(text, start);
  const calls = parsed.call.function.name === '' ? [] : [parsed.call];
  return { start, end: parsed.end, dialect: '<function=…>', calls, fixes: [] };
}

function readFunctionNamed(text: string, start: number, marker: string): TextCallSpan {
  const nameEnd = text.indexOf('"', start + marker.length);
  const tagEnd = nameEnd === -1 ? -1 : text.indexOf('>', nameEnd);
  if (tagEnd === -1) return { start, end: text.length, dialect: '<function name=…>', calls: [], fixes: [] };
  const name = text.slice(start + marker.length, nameEnd).trim();
  const block = readBlock(text, tagEnd + 1 - '>'.length, '>', ['</function>']);
  const calls = name === '' ? [] : [createTextToolCall(name, { arguments: block.body.trim() || '{}' })];
  return { start, end: block.span.end, dialect: '<function name=…>', calls, fixes: [] };
}

// Mistral: `[TOOL_CALLS]name[ARGS]{…}` (optionally `[CALL_ID]id` before `[ARGS]`), `[TOOL_CALLS]name{…}`
// (Ministral, Devstral without [ARGS]), each repeated for parallel calls, or the older
// `[TOOL_CALLS] [{"name":…,"arguments":…}, …]`; a trailing `[/TOOL_CALLS]` belongs to the calls.
function readMistralCalls(
  text: string,
  start: number,
  marker: string,
  toolNames: readonly string[],
): TextCallSpan {
  const dialect = 'mistral [TOOL_CALLS]';
  const afterMarker = start + marker.length;
  const valueStart = skipSpace(text, afterMarker);
  if (/[[{]/.test(text[valueStart] ?? '')) {
    const valueEnd = findJsonValueEnd(text, valueStart);
    const end = valueEnd === -1 ? text.length : valueEnd;
    const body = parseCallBody(text.slice(valueStart, end), toolNames);
    return { start, end, dialect, calls: body.calls, fixes: body.fixes };
  }
  const calls: TextToolCallWire[] = [];
  let cursor = afterMarker;
  for (;;) {
    const match =
      /^\s*(?:\[TOOL_CALLS\])?\s*([A-Za-z_][\w.-]*)(?:\[CALL_ID\][\w-]*)?(?:\[ARGS\])?\s*(?=[{[])/.exec(
        text.slice(cursor, cursor + 400),
      );
    if (match === null) break;
    const argumentsStart = cursor + match[0].length;
    const argumentsEnd = findJsonValueEnd(text, argumentsStart);
    const end = argumentsEnd === -1 ? text.length : argumentsEnd;
    calls.push(createTextToolCall(match[1]!, { arguments: text.slice(argumentsStart, end).trim() }));
    cursor = end;
    if (argumentsEnd === -1) break;
  }
  if (calls.length === 0) {
    const body = parseCallBody(text.slice(afterMarker), toolNames);
    return { start, end: text.length, dialect, calls: body.calls, fixes: body.fixes };
  }
  return { start, end: cursor, dialect, calls, fixes: [] };
}

// DeepSeek: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name\n```json\n{…}\n```<｜tool▁call▁end｜>` (R1, V3) or
// `<｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (V3.1), inside `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`.
function readDeepSeekCalls(text: string, start: number, marker: string): TextCallSpan {
  const bar = marker.includes('|') ? '|' : '｜';
  const tag = (name: string) => `<${bar}${name}${bar}>`;
  const callBegin = tag('tool▁call▁begin');
  const sep = tag('tool▁sep');
  const callEnd = tag('tool▁call▁end');
  const sectionEnd = tag('tool▁calls▁end');
  const calls: TextToolCallWire[] = [];
  let cursor = start + (marker === callBegin ? 0 : marker.length);
  let end = cursor;
  for (;;) {
    const begin = text.indexOf(callBegin, cursor);
    const sectionClose = text.indexOf(sectionEnd, cursor);
    if (begin === -1 || (sectionClose !== -1 && sectionClose < begin)) break;
    const separator = text.indexOf(sep, begin);
    if (separator === -1) break;
    const close = text.indexOf(callEnd, separator);
    const bodyEnd = close === -1 ? text.length : close;
    const head = text.slice(begin + callBegin.length, separator).trim();
    let body = text.slice(separator + sep.length, bodyEnd);
    let name = head;
    if (head === 'function' || head === '') {
      const newline = body.indexOf('\n');
      name = (newline === -1 ? body : body.slice(0, newline)).trim();
      body = newline === -1 ? '' : body.slice(newline + 1);
    }
    const argumentsText = body
      .trim()
      .replace(/^```(?:json)?\s*/, '')
      .replace(/\s*```$/, '');
    if (name !== '') calls.push(createTextToolCall(name, { arguments: argumentsText || '{}' }));
    end = close === -1 ? text.length : close + callEnd.length;
    cursor = end;
    if (close === -1) break;
  }
  const sectionClose = text.indexOf(sectionEnd, end);
  if (sectionClose !== -1 && text.slice(end, sectionClose).trim() === '')
    end = sectionClose + sectionEnd.length;
  return {
    start,
    end: Math.max(end, start + marker.length),
    dialect: 'deepseek tool calls',
    calls,
    fixes: [],
  };
}

function readDsmlCalls(text: string, start: number, marker: string): TextCallSpan {
  const block = readBlock(text, start, marker, ['</｜DSML｜function_calls>']);
  return {
    ...block.span,
    dialect: 'deepseek DSML',
    calls: readInvokeBlocks(block.body, '｜DSML｜'),
    fixes: [],
  };
}

// Kimi K2: `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`, in a section.
function readKimiCalls(text: string, start: number, marker: string): TextCallSpan {
  const sectionEnd = '<|tool_calls_section_end|>';
  const calls: TextToolCallWire[] = [];
  let cursor = start;
  let end = start + marker.length;
  for (;;) {
    const begin = text.indexOf('<|tool_call_begin|>', cursor);
    const sectionClose = text.indexOf(sectionEnd, cursor);
    if (begin === -1 || (sectionClose !== -1 && sectionClose < begin)) break;
    const argumentsAt = text.indexOf('<|tool_call_argument_begin|>', begin);
    if (argumentsAt === -1) break;
    const close = text.indexOf('<|tool_call_end|>', argumentsAt);
    const id = text.slice(begin + '<|tool_call_begin|>'.length, argumentsAt).trim();
    const name = id.replace(/^functions\./, '').replace(/:\d+$/, '');
    const bodyEnd = close === -1 ? text.length : close;
    const argumentsText = text.slice(argumentsAt + '<|tool_call_argument_begin|>'.length, bodyEnd).trim();
    if (name !== '') calls.push(createTextToolCall(name, { arguments: argumentsText || '{}' }));
    end = close === -1 ? text.length : close + '<|tool_call_end|>'.length;
    cursor = end;
    if (close === -1) break;
  }
  const sectionClose = text.indexOf(sectionEnd, end);
  if (sectionClose !== -1 && text.slice(end, sectionClose).trim() === '')
    end = sectionClose + sectionEnd.length;
  return { start, end, dialect: 'kimi tool calls', calls, fixes: [] };
}

// Gemma 4: `<|tool_call>call:name{key:<|"|>text<|"|>,n:5}<tool_call|>`; `<|"|>` delimits strings.
function readGemmaCalls(
  text: string,
  start: number,
  marker: string,
  toolNames: readonly string[],
): TextCallSpan {
  const block = readBlock(text, start, marker, ['<tool_call|>']);
  const match = /^\s*call:([A-Za-z_][\w.-]*)\s*(\{[\s\S]*\})\s*$/.exec(block.body);
  if (match === null) {
    const body = parseCallBody(block.body, toolNames);
    return { ...block.span, dialect: 'gemma <|tool_call>', calls: body.calls, fixes: body.fixes };
  }
  const argumentsText = match[2]!.replace(/<\|"\|>([\s\S]*?)<\|"\|>/g, (_all, inner: string) =>
    JSON.stringify(inner),
  );
  return {
    ...block.span,
    dialect: 'gemma <|tool_call>',
    calls: [createTextToolCall(match[1]!, { arguments: argumentsText })],
    fixes: [],
  };
}

function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  return index;
}
