// Records what a real llama-server sends for the scenarios of test/real/ (issue 16), as test data for the
// normal suite: `node scripts/record-real-runner.mjs http://127.0.0.1:18080/v1` against a server started with
// `../shared/real-runner/start.sh 18080` (the tiny model; its README says what it answers). Each scenario writes
// test/data/real-runner/NAME.http (status line, CRLF headers, blank line, body as received, chunking removed)
// and NAME.request.json (the exact body sent). Request bodies are built by Spine itself, from dist/.
import { writeFileSync } from 'node:fs';
import { buildChatRequest } from '../dist/llm/providers/openai-chat/build-chat-request.js';
import { buildResponsesRequest } from '../dist/llm/providers/responses/build-responses-request.js';

const baseUrl = process.argv[2] ?? process.env.SPINE_REAL_RUNNER_URL ?? 'http://127.0.0.1:18080/v1';
const out = new URL('../test/data/real-runner/', import.meta.url);
const endpoint = { provider: 'llamacpp', baseUrl, model: 'spine-tiny-qwen2' };
const getTime = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Current time in a timezone',
    parameters: { type: 'object', properties: { timezone: { type: 'string' } }, required: ['timezone'] },
  },
};

const scenarios = [
  {
    name: 'responses-second-turn',
    build: () =>
      buildResponsesRequest(
        endpoint,
        {
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'Hello from the tiny model.' },
            { role: 'user', content: 'again' },
          ],
        },
        false,
      ),
  },
  {
    name: 'responses-cut-completed',
    build: () =>
      buildResponsesRequest(
        endpoint,
        { messages: [{ role: 'user', content: 'sing /long' }], maxTokens: 5 },
        false,
      ),
  },
  {
    name: 'responses-cut-completed-stream',
    build: () =>
      buildResponsesRequest(
        endpoint,
        { messages: [{ role: 'user', content: 'sing /long' }], maxTokens: 5 },
        true,
      ),
  },
  {
    name: 'chat-think-only-stream',
    build: () => buildChatRequest(endpoint, { messages: [{ role: 'user', content: '/think' }] }, true),
  },
  {
    name: 'chat-long-cut-stream',
    build: () =>
      buildChatRequest(endpoint, { messages: [{ role: 'user', content: 'sing /long' }], maxTokens: 6 }, true),
  },
  {
    name: 'chat-any-model-name',
    build: () =>
      buildChatRequest(
        { ...endpoint, model: 'any-name-at-all' },
        { messages: [{ role: 'user', content: 'ping' }], maxTokens: 1 },
        false,
      ),
  },
  {
    name: 'chat-tools-cut-inside-call',
    build: () =>
      buildChatRequest(
        endpoint,
        { messages: [{ role: 'user', content: 'time?' }], tools: [getTime], maxTokens: 12 },
        false,
      ),
  },
  { name: 'models', get: `${baseUrl}/models` },
];

for (const scenario of scenarios) {
  const spec = scenario.build?.();
  const response = spec
    ? await fetch(spec.url, { method: 'POST', headers: spec.headers, body: spec.body })
    : await fetch(scenario.get);
  const body = Buffer.from(await response.arrayBuffer());
  const headerLines = [];
  response.headers.forEach((value, name) => {
    if (!['transfer-encoding', 'content-length', 'connection', 'keep-alive', 'date'].includes(name))
      headerLines.push(`${name}: ${value}`);
  });
  const head = `HTTP/1.1 ${response.status} ${response.statusText}\r\n${headerLines.join('\r\n')}\r\n\r\n`;
  writeFileSync(new URL(`${scenario.name}.http`, out), Buffer.concat([Buffer.from(head, 'latin1'), body]));
  if (spec) writeFileSync(new URL(`${scenario.name}.request.json`, out), `${spec.body}\n`);
  console.log(`${scenario.name}: HTTP ${response.status}, ${body.length} bytes`);
}
