import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { finishChunk, textChunk, toolCallChunk } from '../support/chat-wire.js';
import type { RecordedRequest, ScriptedResponse } from '../support/fake-runner.js';

// The CLI runs from source in a real process, as a user would run the built one. tsx is named by file URL so
// that a run in another folder (a temp project) still finds it.
const mainScript = path.resolve('src/cli/main.ts');
const tsxLoader = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', tsxLoader, mainScript, ...args],
      { cwd: options.cwd ?? process.cwd(), env: { ...cleanEnv(), ...options.env }, timeout: 15_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

/** A CLI process to talk to over time (chat): its output so far, and a way to wait for a piece of it. */
export interface LiveCli {
  child: ChildProcessWithoutNullStreams;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once stdout matches (rejects after `timeoutMs`, showing what was printed). */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

export function spawnCli(args: string[], options: { cwd?: string } = {}): LiveCli {
  return watch(
    spawn(process.execPath, ['--import', tsxLoader, mainScript, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: cleanEnv(),
    }),
  );
}

function watch(child: ChildProcessWithoutNullStreams): LiveCli {
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    waitForStdout: (pattern, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stdout)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`stdout never matched ${pattern}:\n${stdout}\nstderr:\n${stderr}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
  };
}

/**
 * The CLI on a pseudo-terminal (util-linux `script`), for what only happens on a terminal, such as a prompt:
 * stdin and both outputs are the terminal, so its output arrives as one stream on `stdout`.
 */
export function spawnCliInTerminal(args: string[], options: { cwd?: string } = {}): LiveCli {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const commandLine = [process.execPath, '--import', tsxLoader, mainScript, ...args].map(quote).join(' ');
  return watch(
    spawn('script', ['-qfec', commandLine, '/dev/null'], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...cleanEnv(), TERM: 'dumb', NO_COLOR: '1' },
    }),
  );
}

/** No endpoint settings leak in from the developer's shell. */
function cleanEnv(): NodeJS.ProcessEnv {
  const { SPINE_BASE_URL, SPINE_MODEL, SPINE_PROVIDER, LLM_API_KEY, ...rest } = process.env;
  return rest;
}

/** A streamed turn in which the model calls one tool (by its wire name, `fs_read` for `fs.read`). */
export function toolCallTurn(name: string, args: object, id = 'call_1'): ScriptedResponse {
  return {
    sse: [toolCallChunk(0, { id, name, arguments: JSON.stringify(args) }), finishChunk('tool_calls')],
  };
}

/** A streamed turn in which the model calls several tools at once. */
export function toolCallsTurn(calls: Array<{ name: string; args: object }>): ScriptedResponse {
  return {
    sse: [
      ...calls.map((call, index) =>
        toolCallChunk(index, {
          id: `call_${index + 1}`,
          name: call.name,
          arguments: JSON.stringify(call.args),
        }),
      ),
      finishChunk('tool_calls'),
    ],
  };
}

/** A streamed plain answer, in two pieces. */
export function answerTurn(text: string): ScriptedResponse {
  const middle = Math.ceil(text.length / 2);
  return { sse: [textChunk(text.slice(0, middle)), textChunk(text.slice(middle)), finishChunk('stop')] };
}

interface SentMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
}

/** The messages of a recorded chat request. */
export function sentMessages(request: RecordedRequest | undefined): SentMessage[] {
  return ((request?.body as { messages?: SentMessage[] } | undefined)?.messages ?? []) as SentMessage[];
}

/** The tool results a request carried back, parsed. */
export function sentToolResults(request: RecordedRequest | undefined): Array<Record<string, unknown>> {
  return sentMessages(request)
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(message.content ?? 'null') as Record<string, unknown>);
}

/** The wire names of the tools a request offered. */
export function sentToolNames(request: RecordedRequest | undefined): string[] {
  const tools = (request?.body as { tools?: Array<{ function: { name: string } }> } | undefined)?.tools ?? [];
  return tools.map((tool) => tool.function.name);
}
