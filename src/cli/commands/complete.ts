import type { Command } from 'commander';
import type { ModelClient, ModelRequest, ModelResponse, RetryInfo } from '../../core/types.js';
import { addModelOptions, type ModelFlags, selectModel } from '../model-selection.js';
import { readChatRequestFile, toModelRequest } from '../read-chat-request.js';
import { describeToolCall, eventToJson, responseToJson } from '../render-response.js';
import { reportError, toErrorBody } from '../report-error.js';

interface CompleteFlags extends ModelFlags {
  request?: string;
  stream?: boolean;
  json?: boolean;
}

export function registerCompleteCommand(program: Command): void {
  addModelOptions(
    program
      .command('complete')
      .description('one model call, normalized; no tool is executed')
      .argument('[prompt]', 'user message (appended to --request messages)')
      .option('--request <file>', 'an OpenAI chat request body (JSON file, or - for stdin)')
      .option('--stream', 'stream the answer as it arrives')
      .option('--json', 'print JSON: the ModelResponse, or one event per line with --stream'),
  ).action(async (prompt: string | undefined, flags: CompleteFlags) => {
    try {
      const body = flags.request ? await readChatRequestFile(flags.request) : {};
      const request = toModelRequest(body, prompt);
      const { client } = await selectModel(flags, printRetry);
      if (flags.stream) await streamCompletion(client, request, Boolean(flags.json));
      else printResponse(await client.respond(request), Boolean(flags.json));
    } catch (error) {
      // A JSON stream ends with an `error` event line instead of the plain error object.
      if (flags.json && flags.stream)
        process.stdout.write(`${JSON.stringify({ type: 'error', error: toErrorBody(error) })}\n`);
      reportError(error, Boolean(flags.json) && !flags.stream);
    }
  });
}

/** Retries are visible, on stderr so that `--json` output stays clean. */
export function printRetry(retry: RetryInfo): void {
  process.stderr.write(`retry ${retry.attempt} in ${retry.delayMs} ms: ${retry.code} ${retry.reason}\n`);
}

async function streamCompletion(client: ModelClient, request: ModelRequest, json: boolean): Promise<void> {
  for await (const event of client.stream(request)) {
    if (json) {
      if (event.type !== 'retry') process.stdout.write(`${JSON.stringify(eventToJson(event))}\n`);
    } else if (event.type === 'text-delta') process.stdout.write(event.text);
    else if (event.type === 'tool-call')
      process.stdout.write(`\n${describeToolCall(event.call.name, event.call.arguments)}`);
    else if (event.type === 'done') process.stdout.write('\n');
  }
}

function printResponse(response: ModelResponse, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(responseToJson(response))}\n`);
    return;
  }
  if (response.content) process.stdout.write(`${response.content}\n`);
  for (const call of response.toolCalls)
    process.stdout.write(`${describeToolCall(call.name, call.arguments)}\n`);
  for (const call of response.incompleteToolCalls) {
    process.stdout.write(`(incomplete tool call ${call.name}: ${call.rawArguments})\n`);
  }
}
