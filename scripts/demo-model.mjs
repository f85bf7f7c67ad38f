// A stand-in model for `npm run demo`: a loopback HTTP server that speaks llama-server's streamed wire format
// (chunk shapes as in test/data/llama-server/, recorded from a real llama-server) and follows a fixed plan:
// list the project, read package.json, then answer from what the tools returned. Nothing here is Spine code;
// Spine talks to it exactly as it talks to a real runner.
import { createServer } from 'node:http';

const chunkBase = { created: 1795357941, model: 'demo.gguf', object: 'chat.completion.chunk' };

function chunk(id, delta, finishReason = null) {
  return { ...chunkBase, id, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

/** Splits text into pieces of a few characters, as a tokenizer would. */
function pieces(text, size) {
  const out = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

function toolCallTurn(id, name, args) {
  const argumentsText = JSON.stringify(args);
  const [first, ...rest] = pieces(argumentsText, 4);
  return [
    chunk(id, { role: 'assistant', content: null }),
    chunk(id, {
      tool_calls: [{ index: 0, id: `${id}-call`, type: 'function', function: { name, arguments: first } }],
    }),
    ...rest.map((part) => chunk(id, { tool_calls: [{ index: 0, function: { arguments: part } }] })),
    chunk(id, {}, 'tool_calls'),
  ];
}

function textTurn(id, text) {
  return [
    chunk(id, { role: 'assistant', content: null }),
    ...pieces(text, 6).map((part) => chunk(id, { content: part })),
    chunk(id, {}, 'stop'),
  ];
}

/** The tool results the client has sent back so far, by tool name. */
function toolResults(messages) {
  const names = new Map();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  const results = {};
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    try {
      results[names.get(message.tool_call_id)] = JSON.parse(message.content);
    } catch {
      results[names.get(message.tool_call_id)] = { ok: false };
    }
  }
  return results;
}

function wireName(tools, name) {
  const match = (tools ?? []).find(
    (tool) => tool.function.name.replace(/[^a-zA-Z0-9]/g, '') === name.replace(/\W/g, ''),
  );
  return match?.function.name ?? name;
}

function answer(results, turn) {
  const listing = Object.entries(results).find(([name]) => name.includes('list'))?.[1];
  const read = Object.entries(results).find(([name]) => name.includes('read'))?.[1];
  const entries = listing?.ok ? (listing.entries ?? listing.entriesPreview ?? []) : [];
  let manifest;
  try {
    manifest = read?.ok ? JSON.parse(read.content) : undefined;
  } catch {}
  if (!manifest) return 'I could not read package.json in this folder, so I cannot say what the project is.';
  const deps = Object.keys(manifest.dependencies ?? {});
  const names = entries
    .map((entry) => (typeof entry === 'string' ? entry : (entry.name ?? entry.path)))
    .filter(Boolean);
  return [
    `This is **${manifest.name}** ${manifest.version}: ${manifest.description ?? 'no description'}.`,
    `The top level holds ${names.length} entries (${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}).`,
    `It depends on ${deps.length} runtime packages: ${deps.join(', ') || 'none'}.`,
    `Scripts: ${Object.keys(manifest.scripts ?? {}).join(', ')}. (${turn} model calls, two tool calls.)`,
  ].join('\n');
}

export async function startDemoModel() {
  let turn = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (data) => {
      body += data;
    });
    request.on('end', async () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }),
        );
        return;
      }
      const parsed = JSON.parse(body);
      turn += 1;
      const id = `chatcmpl-demo-${turn}`;
      const results = toolResults(parsed.messages);
      const events =
        !('fs.list' in results) && !Object.keys(results).some((name) => name.includes('list'))
          ? toolCallTurn(id, wireName(parsed.tools, 'fs.list'), { path: '@project' })
          : !Object.keys(results).some((name) => name.includes('read'))
            ? toolCallTurn(id, wireName(parsed.tools, 'fs.read'), { path: '@project/package.json' })
            : textTurn(id, answer(results, turn));
      response.writeHead(200, { 'content-type': 'text/event-stream', server: 'llama.cpp' });
      for (const event of events) {
        response.write(`data: ${JSON.stringify(event)}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, 8));
      }
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}
