// A loopback OpenAI-compatible server for the client benchmark. It runs in its own process so its CPU is not
// counted against the clients. The scenario is chosen by the request's `model` field; bodies are prebuilt.
import { createServer } from 'node:http';

const encoder = new TextEncoder();
const sseLine = (object) => `data: ${JSON.stringify(object)}\n\n`;
const chunk = (delta, finish = null) => ({
  id: 'chatcmpl-bench',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'bench',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function buildContentStream(count) {
  const frames = [sseLine(chunk({ role: 'assistant', content: '' }))];
  for (let i = 0; i < count; i++) frames.push(sseLine(chunk({ content: `tok${i} ` })));
  frames.push(sseLine(chunk({}, 'stop')));
  frames.push(
    sseLine({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'bench',
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: count, total_tokens: count + 10 },
    }),
  );
  frames.push('data: [DONE]\n\n');
  return frames;
}

function buildToolStream(pieces) {
  const args = JSON.stringify({ path: 'src/index.ts', content: 'x'.repeat(pieces * 3) });
  const size = Math.ceil(args.length / pieces);
  const frames = [
    sseLine(
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '' } },
        ],
      }),
    ),
  ];
  for (let i = 0; i < args.length; i += size) {
    frames.push(
      sseLine(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + size) } }] })),
    );
  }
  frames.push(sseLine(chunk({}, 'tool_calls')));
  frames.push('data: [DONE]\n\n');
  return frames;
}

const small = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1,
  model: 'bench',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Hello from the bench server.' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 6, total_tokens: 16 },
});

const streams = {
  stream500: buildContentStream(500).map((frame) => encoder.encode(frame)),
  stream50: buildContentStream(50).map((frame) => encoder.encode(frame)),
  tool200: buildToolStream(200).map((frame) => encoder.encode(frame)),
  firstDelta: buildContentStream(5).map((frame) => encoder.encode(frame)),
};

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (part) => {
    body += part;
  });
  request.on('end', () => {
    const { model, stream } = JSON.parse(body);
    if (!stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(small);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const frames = streams[model];
    if (model === 'firstDelta') {
      // The first two frames go out at once; the rest after a pause, so the time to the first text-delta
      // measures only how fast a client hands over what it already has.
      response.write(frames[0]);
      response.write(frames[1]);
      setTimeout(() => {
        for (const frame of frames.slice(2)) response.write(frame);
        response.end();
      }, 30);
      return;
    }
    // One write per frame, like a runner flushing token by token.
    for (const frame of frames) response.write(frame);
    response.end();
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
