// Text tool-call extraction benchmark (issue 10): the CPU of normalizing a 200 KB streamed answer fed one byte
// per chunk, against the same answer in one chunk, through the stream normalizer that holds back possible
// call markup and extracts the calls at the end. Two answers: prose with a call at the end, and prose full of
// near-markers (`<`, `[`, `{` at line starts) that must all be decided and released. The goal is ≤ 2×.
import { ResponseStreamNormalizer } from '../../dist/llm/normalize/response-stream-normalizer.js';

const tools = ['get_weather', 'get_time', 'search'].map((name) => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties: {} } },
}));
const request = { messages: [{ role: 'user', content: 'x' }], tools };

function answer(kind) {
  const lines = [];
  for (let size = 0; size < 200 * 1024; ) {
    const line =
      kind === 'near-markers'
        ? `[note ${lines.length}] {not json} <b>bold</b> x < y and [a](b) {"k": 1}`
        : `Line ${lines.length} of an ordinary answer, with some words in it to read.`;
    lines.push(line);
    size += line.length + 1;
  }
  if (kind === 'call-at-end')
    lines.push('<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>');
  return lines.join('\n');
}

function normalize(text, chunkSize) {
  const normalizer = new ResponseStreamNormalizer(request);
  let shown = 0;
  for (let offset = 0; offset < text.length; offset += chunkSize) {
    for (const event of normalizer.push([
      { type: 'text-delta', text: text.slice(offset, offset + chunkSize) },
    ]))
      if (event.type === 'text-delta') shown += event.text.length;
  }
  const response = {
    content: text,
    toolCalls: [],
    incompleteToolCalls: [],
    reasoning: null,
    finishReason: 'stop',
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    model: 'm',
    repairs: [],
    message: { role: 'assistant', content: text },
  };
  const events = normalizer.push([{ type: 'done', response }]);
  const done = events.find((event) => event.type === 'done');
  if (done === undefined) throw new Error('no done event');
  return { shown, calls: done.response.toolCalls.length };
}

/** Least CPU of a few runs: one run's figure swings with where the garbage collector happens to fall. */
function cpuMs(work) {
  let best = Number.POSITIVE_INFINITY;
  let result;
  for (let run = 0; run < 5; run += 1) {
    const start = process.cpuUsage();
    result = work();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return { ms: best, result };
}

/** The same stream through a normalizer that does nothing: the cost of the deltas themselves. */
function passThroughMs(text) {
  return cpuMs(() => {
    let shown = 0;
    for (let offset = 0; offset < text.length; offset += 1) {
      const output = [];
      for (const event of [{ type: 'text-delta', text: text.slice(offset, offset + 1) }]) output.push(event);
      for (const event of output) if (event.type === 'text-delta') shown += event.text.length;
    }
    return { shown };
  }).ms;
}

export async function run() {
  console.log('answer         | one chunk | 1 byte/chunk | ratio | deltas alone | calls');
  for (const kind of ['call-at-end', 'near-markers']) {
    const text = answer(kind);
    normalize(text, text.length);
    normalize(text, 1);
    const whole = cpuMs(() => normalize(text, text.length));
    const bytewise = cpuMs(() => normalize(text, 1));
    if (whole.result.calls !== bytewise.result.calls || whole.result.shown !== bytewise.result.shown)
      throw new Error(`${kind}: the split changed the outcome`);
    const deltas = passThroughMs(text);
    console.log(
      `${kind.padEnd(14)} | ${whole.ms.toFixed(1).padStart(7)} ms | ${bytewise.ms.toFixed(1).padStart(9)} ms | ${(bytewise.ms / whole.ms).toFixed(2).padStart(4)}× | ${deltas.toFixed(1).padStart(9)} ms | ${whole.result.calls}`,
    );
  }
}
