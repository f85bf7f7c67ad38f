// One driver per client under test. Each returns what it received, so the harness can check the output:
// a broken client cannot report a fast time.
import { Agent, request as undiciRequest } from 'undici';

const messages = [{ role: 'user', content: 'hi' }];
const tools = [
  {
    type: 'function',
    function: {
      name: 'write_file',
      description: 'Write a file',
      parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
    },
  },
];

/** The floor: fetch plus the smallest SSE loop that is still correct across chunk splits. */
function createFetchFloor(baseUrl) {
  const call = async (model, stream, onDelta) => {
    const response = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages, tools: model === 'tool200' ? tools : undefined, stream }),
    });
    if (!stream) return { content: (await response.json()).choices[0].message.content, args: '' };
    return readSse(response.body, onDelta);
  };
  return { name: 'fetch + hand SSE (floor)', call };
}

async function readSse(body, onDelta) {
  const decoder = new TextDecoder();
  let buffer = '';
  let content = '';
  let args = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (!frame.startsWith('data: ')) continue;
      const data = frame.slice(6);
      if (data === '[DONE]') return { content, args };
      const delta = JSON.parse(data).choices[0]?.delta;
      if (delta?.content) {
        content += delta.content;
        onDelta?.();
      }
      if (delta?.tool_calls) args += delta.tool_calls[0].function.arguments ?? '';
    }
  }
  return { content, args };
}

/** undici.request with the same hand loop: the cheaper transport Spine builds on. */
function createUndiciFloor(baseUrl) {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const call = async (model, stream, onDelta) => {
    const response = await undiciRequest(`${baseUrl}/chat/completions`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages, tools: model === 'tool200' ? tools : undefined, stream }),
    });
    if (!stream) return { content: (await response.body.json()).choices[0].message.content, args: '' };
    return readSse(response.body, onDelta);
  };
  return { name: 'undici.request + hand SSE', call };
}

async function createSpineDriver(baseUrl) {
  const { createModelClient } = await import('../dist/index.js');
  const client = createModelClient({ provider: 'openai-compatible', baseUrl, model: 'bench', maxRetries: 0 });
  const call = async (model, stream, onDelta) => {
    const request = { model, messages, tools: model === 'tool200' ? tools : undefined };
    if (!stream) {
      const response = await client.respond(request);
      return { content: response.content, args: '' };
    }
    let content = '';
    let args = '';
    for await (const event of client.stream(request)) {
      if (event.type === 'text-delta') {
        content += event.text;
        onDelta?.();
      } else if (event.type === 'tool-call') args = event.call.rawArguments;
    }
    return { content, args };
  };
  return { name: 'Spine', call };
}

async function createOpenAiDriver(baseUrl) {
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench', maxRetries: 0 });
  const call = async (model, stream, onDelta) => {
    const body = { model, messages, tools: model === 'tool200' ? tools : undefined };
    if (!stream) {
      const completion = await client.chat.completions.create(body);
      return { content: completion.choices[0].message.content, args: '' };
    }
    let content = '';
    let args = '';
    const events = await client.chat.completions.create({ ...body, stream: true });
    for await (const part of events) {
      const delta = part.choices[0]?.delta;
      if (delta?.content) {
        content += delta.content;
        onDelta?.();
      }
      if (delta?.tool_calls) args += delta.tool_calls[0].function?.arguments ?? '';
    }
    return { content, args };
  };
  return { name: 'openai SDK', call };
}

async function createAiSdkDriver(baseUrl) {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const { generateText, streamText, jsonSchema, tool } = await import('ai');
  const provider = createOpenAICompatible({ name: 'bench', baseURL: baseUrl });
  const aiTools = {
    write_file: tool({ description: 'Write a file', inputSchema: jsonSchema(tools[0].function.parameters) }),
  };
  const call = async (model, stream, onDelta) => {
    const options = {
      model: provider(model),
      messages,
      maxRetries: 0,
      tools: model === 'tool200' ? aiTools : undefined,
    };
    if (!stream) return { content: (await generateText(options)).text, args: '' };
    let content = '';
    let args = '';
    const result = streamText(options);
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        content += part.text;
        onDelta?.();
      } else if (part.type === 'tool-call') args = JSON.stringify(part.input);
      else if (part.type === 'error') throw part.error;
    }
    return { content, args };
  };
  return { name: 'Vercel AI SDK', call };
}

export const driverFactories = {
  floor: createFetchFloor,
  undici: createUndiciFloor,
  spine: createSpineDriver,
  openai: createOpenAiDriver,
  aisdk: createAiSdkDriver,
};
