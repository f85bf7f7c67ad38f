import { createTextToolCall, type TextToolCallWire } from './text-tool-call-wire.js';

/**
 * Arguments written as XML-like tags, one per parameter. Values stay strings unless they are JSON objects or
 * arrays (or the tag says `string="false"`): the tool's schema converts `"5"` to `5` later, as the runners'
 * own parsers do (RUNNER-QUIRKS §25).
 */

/** GLM 4.5-4.7: `<arg_key>k</arg_key>` then `<arg_value>v</arg_value>` (llama.cpp `common_chat_parse_glm_4_5`, vLLM `glm4_moe_tool_parser.py`). */
export function readArgumentPairs(body: string): Record<string, unknown> | undefined {
  const pattern = /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/g;
  const entries: Array<[string, unknown]> = [];
  for (const match of body.matchAll(pattern)) entries.push([match[1]!.trim(), toValue(match[2]!)]);
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/**
 * `<invoke name="x"><parameter name="k">v</parameter></invoke>` blocks: MiniMax M2 (vLLM
 * `minimax_m2_tool_parser.py`) and, with the `｜DSML｜` prefix on every tag, DeepSeek V3.2 (whose parameters say
 * `string="true|false"`; llama.cpp `common_chat_parse_deepseek_v3_2`).
 */
export function readInvokeBlocks(body: string, prefix = ''): TextToolCallWire[] {
  const invoke = new RegExp(
    `<${escapeRegExp(prefix)}invoke\\s+name="([^"]+)"\\s*>([\\s\\S]*?)(?:</${escapeRegExp(prefix)}invoke>|$)`,
    'g',
  );
  const parameter = new RegExp(
    `<${escapeRegExp(prefix)}parameter\\s+name="([^"]+)"(?:\\s+string="(true|false)")?\\s*>([\\s\\S]*?)(?:</${escapeRegExp(prefix)}parameter>|$)`,
    'g',
  );
  const calls: TextToolCallWire[] = [];
  for (const block of body.matchAll(invoke)) {
    const entries: Array<[string, unknown]> = [];
    for (const match of block[2]!.matchAll(parameter)) {
      entries.push([match[1]!, match[2] === 'false' ? toJson(match[3]!) : toValue(match[3]!)]);
    }
    calls.push(createTextToolCall(block[1]!.trim(), { arguments: Object.fromEntries(entries) }));
  }
  return calls;
}

function toValue(raw: string): unknown {
  // Templates put values on their own lines; one newline either side is framing, not data.
  const value = raw.replace(/^\n/, '').replace(/\n$/, '');
  const trimmed = value.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return value;
    }
  }
  return value;
}

function toJson(raw: string): unknown {
  try {
    return JSON.parse(raw.trim());
  } catch {
    return raw.trim();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
