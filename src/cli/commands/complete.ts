import type { Command } from 'commander';
import type { ModelClient, ModelRequest, ModelResponse, RetryInfo } from '../../core/types.js';
import { addModelOptions, type ModelFlags, selectModel } from '../model-selection.js';
import { readChatRequestFile, readPromptFromStdin, toModelRequest } from '../read-chat-request.js';
import { describeToolCall, eventToJson, responseToJson } from '../render-response.js';
import { reportError, toErrorBody } from '../report-error.js';
import { TerminalOutput } from '../terminal-output.js';
import { WaitIndicator } from '../wait-indicator.js';

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
      .argument('[prompt]', 'user message (appended to --request messages); read from stdin when left out')
      .option('--request <file>', 'an OpenAI chat request body (JSON file, or - for stdin)')
      .option('--stream', 'stream the answer as it arrives')
      .option('--json', 'print JSON: the ModelResponse, or one event per line with --stream'),
  ).action(async (prompt: string | undefined, flags: CompleteFlags) => {
    const stdout = new TerminalOutput(process.stdout);
    const waiting = new WaitIndicator(process.stderr);
    try {
      const body = flags.request ? await readChatRequestFile(flags.request) : {};
      const text = prompt ?? (flags.request === '-' ? undefined : await readPromptFromStdin());
      const request = toModelRequest(body, text);
      const { client, description } = await selectModel(
        flags,
        flags.stream && flags.json ? noRetryLine : printRetry,
      );
      waiting.start(`waiting for ${description}`);
      if (flags.stream) await streamCompletion(client, request, Boolean(flags.json), stdout, waiting);
      else {
        const response = await client.respond(request);
        waiting.stop();
        printResponse(response, Boolean(flags.json), stdout);
      }
    } catch (error) {
      waiting.stop();
      // A JSON stream ends with an `error` event line instead of the plain error object.
      if (flags.json && flags.stream)
        process.stdout.write(`${JSON.stringify({ type: 'error', error: toErrorBody(error) })}\n`);
      // Partial text stays as it came; the error starts on a line of its own.
      else stdout.endLine();
      reportError(error, Boolean(flags.json) && !flags.stream);
    }
  });
}

/** Retries are visible, on stderr so that `--json` output stays clean. */
export function printRetry(retry: RetryInfo): void {
  process.stderr.write(`retry ${retry.attempt} in ${retry.delayMs} ms: ${retry.code} ${retry.reason}\n`);
}

/** With `--stream --json` a retry is an event line on stdout; saying it again on stderr would be noise. */
function noRetryLine(): void {}

async function streamCompletion(
  client: ModelClient,
  request: ModelRequest,
  json: boolean,
  stdout: TerminalOutput,
  waiting: WaitIndicator,
): Promise<void> {
  for await (const event of client.stream(request)) {
    if (event.type !== 'retry') waiting.stop();
    if (json) stdout.write(`${JSON.stringify(eventToJson(event))}\n`);
    else if (event.type === 'text-delta') stdout.write(event.text);
    else if (event.type === 'tool-call') stdout.line(describeToolCall(event.call.name, event.call.arguments));
    else if (event.type === 'done') {
      printIncompleteCalls(event.response, stdout);
      stdout.endLine();
    }
  }
}

function printResponse(response: ModelResponse, json: boolean, stdout: TerminalOutput): void {
  if (json) {
    stdout.write(`${JSON.stringify(responseToJson(response))}\n`);
    return;
  }
  if (response.content) stdout.line(response.content);
  for (const call of response.toolCalls) stdout.line(describeToolCall(call.name, call.arguments));
  printIncompleteCalls(response, stdout);
}

function printIncompleteCalls(response: ModelResponse, stdout: TerminalOutput): void {
  for (const call of response.incompleteToolCalls) {
    stdout.line(`(incomplete tool call ${call.name}: ${call.rawArguments})`);
  }
  // llama-server drops a call cut inside its <tool_call> without a trace: the finish is all that tells.
  if (response.finishReason === 'length' && response.incompleteToolCalls.length === 0) {
    stdout.endLine();
    process.stderr.write(
      '(the answer was cut off at its token limit: raise max_tokens or the runner’s context)\n',
    );
  }
}
