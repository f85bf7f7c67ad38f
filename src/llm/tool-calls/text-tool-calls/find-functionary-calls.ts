import { findJsonValueEnd } from '../repair/find-json-value-end.js';
import type { TextCallSpan } from './text-call-span.js';
import { createTextToolCall } from './text-tool-call-wire.js';

/**
 * Functionary v3.2: `>>>name\n{…}` per call (`>>>all\n…` is text), llama.cpp
 * `common_chat_parse_functionary_v3_2`. `>>>` is also a Python prompt in prose, so a block counts only when it
 * names an offered tool and its JSON arguments follow on the next line.
 */
export function findFunctionaryCalls(content: string, toolNames: readonly string[]): TextCallSpan[] {
  const spans: TextCallSpan[] = [];
  for (const match of content.matchAll(/(?:^|\n)>>>([A-Za-z_][\w.-]*)\n/g)) {
    const name = match[1]!;
    if (!toolNames.includes(name)) continue;
    const start = match.index + (match[0].startsWith('\n') ? 1 : 0);
    const argumentsStart = match.index + match[0].length;
    if (!/[[{]/.test(content[argumentsStart] ?? '')) continue;
    const argumentsEnd = findJsonValueEnd(content, argumentsStart);
    const end = argumentsEnd === -1 ? content.length : argumentsEnd;
    const call = createTextToolCall(name, { arguments: content.slice(argumentsStart, end) });
    spans.push({
      start,
      end,
      dialect: 'functionary >>>',
      calls: [call],
      fixes: argumentsEnd === -1 ? ['truncated JSON closed'] : [],
    });
  }
  return spans;
}
