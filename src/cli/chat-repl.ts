import { createInterface, type Interface } from 'node:readline';
import type { EngineResult } from '../engine/engine-types.js';
import { isChatCommand, runChatCommand } from './chat-commands.js';
import type { ChatSession } from './chat-session.js';
import { judgeAnswer } from './judge-answer.js';
import { LineQueue } from './line-queue.js';
import { MutableOutput } from './mutable-output.js';
import type { TerminalOutput } from './terminal-output.js';

export interface ChatReplOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Answers, tool lines, command output. */
  output: TerminalOutput;
  /** One-line `CODE: message` errors. */
  errors: TerminalOutput;
  session: ChatSession;
  modelDescription: string;
  /** Whether this text was already streamed (an answer that arrived without deltas is printed at the end). */
  wasShown: (text: string) => boolean;
}

interface InputLine {
  text: string;
  /** Entered while a turn ran: its echo was muted, so it is shown at its prompt when its turn comes. */
  typedAhead: boolean;
}

const prompt = '› ';

/**
 * The `spine chat` loop over a terminal or piped input. Ctrl+C during a turn cancels that turn and returns
 * to the prompt; at an idle prompt it clears the line, and a second one (or Ctrl+D, or `/exit`) leaves.
 */
export class ChatRepl {
  readonly #options: ChatReplOptions;
  readonly #readline: Interface;
  readonly #echo: MutableOutput | undefined;
  readonly #queue = new LineQueue<InputLine>();
  readonly #interactive: boolean;
  #turn: AbortController | undefined;
  #idleInterrupts = 0;

  constructor(options: ChatReplOptions) {
    this.#options = options;
    const stdout = options.output.stream as NodeJS.WriteStream;
    this.#interactive = Boolean(options.input.isTTY && stdout.isTTY);
    this.#echo = this.#interactive ? new MutableOutput(stdout) : undefined;
    this.#readline = createInterface({
      input: options.input,
      ...(this.#echo ? { output: this.#echo } : {}),
      terminal: this.#interactive,
      prompt,
    });
  }

  async run(): Promise<void> {
    const readline = this.#readline;
    readline.on('line', (text) => {
      this.#idleInterrupts = 0;
      this.#queue.push({ text, typedAhead: this.#turn !== undefined });
    });
    readline.on('close', () => this.#queue.end());
    // A terminal in raw mode delivers Ctrl+C to readline; a signal from outside (kill -INT, a pipe's
    // parent) arrives at the process. Both mean the same.
    readline.on('SIGINT', this.#interrupt);
    process.on('SIGINT', this.#interrupt);
    try {
      this.#printBanner();
      await this.#loop();
    } finally {
      process.off('SIGINT', this.#interrupt);
      readline.close();
    }
  }

  async #loop(): Promise<void> {
    for (;;) {
      const waiting = this.#queue.peek();
      // A line typed ahead during the turn had its echo muted: show it at its prompt as if typed now.
      if (waiting?.typedAhead && this.#interactive) this.#options.output.write(`${prompt}${waiting.text}\n`);
      else this.#prompt();
      const line = await this.#queue.next();
      if (line === undefined) {
        // Ctrl+D or a second Ctrl+C leaves the cursor after the prompt; the shell's prompt needs a line.
        if (this.#interactive) this.#options.output.write('\n');
        return;
      }
      if ((await this.#handle(line.text)) === 'exit') return;
    }
  }

  async #handle(line: string): Promise<'continue' | 'exit'> {
    const text = line.trim();
    if (text === '') return 'continue';
    const { session, output, modelDescription } = this.#options;
    if (isChatCommand(text)) return runChatCommand(text, { session, output, modelDescription });
    const turn = new AbortController();
    this.#turn = turn;
    this.#setEcho(false);
    try {
      this.#report(await session.send(text, turn.signal));
    } finally {
      this.#turn = undefined;
      this.#setEcho(true);
    }
    return 'continue';
  }

  #report(result: EngineResult): void {
    const { output, errors } = this.#options;
    if (result.assistantText !== '' && !this.#options.wasShown(result.assistantText))
      output.write(result.assistantText);
    output.endLine();
    if (result.error?.code === 'ENGINE_ABORTED') output.line('(turn cancelled)');
    else if (result.error) errors.line(`${result.error.code}: ${result.error.message}`);
    const note = judgeAnswer(result).note;
    if (note !== undefined) errors.line(note);
  }

  readonly #interrupt = (): void => {
    if (this.#turn !== undefined) {
      this.#turn.abort();
      return;
    }
    if (this.#readline.line !== '') {
      // Like a shell: Ctrl+C over typed text throws the text away.
      this.#readline.write(null, { ctrl: true, name: 'u' });
      this.#idleInterrupts = 0;
      return;
    }
    this.#idleInterrupts += 1;
    if (this.#idleInterrupts >= 2) {
      this.#readline.close();
      return;
    }
    // The prompt is on screen (written by readline, unseen by the output's line tracking).
    if (this.#interactive) this.#options.output.write('\n');
    this.#options.output.line('(press Ctrl+C again or Ctrl+D to exit)');
    this.#prompt();
  };

  #setEcho(on: boolean): void {
    if (this.#echo) this.#echo.muted = !on;
  }

  #prompt(): void {
    // `true` keeps readline's cursor: text typed ahead (not yet entered) is redrawn after the prompt.
    if (this.#interactive) this.#readline.prompt(true);
  }

  #printBanner(): void {
    const { output, session, modelDescription } = this.#options;
    output.writeDim(`spine chat · ${modelDescription} · run ${session.runId}\n`);
    if (this.#interactive) output.writeDim('/help for commands, Ctrl+C cancels a turn, Ctrl+D exits\n');
  }
}
