import type { EngineEvent } from '../engine/engine-events.js';
import type { TerminalOutput } from './terminal-output.js';
import type { WaitIndicator } from './wait-indicator.js';

export interface EngineEventRendererOptions {
  /** Where the model's answer goes. */
  text: TerminalOutput;
  /** Where tool calls, their results and reasoning go (the same output as `text` in chat). */
  info: TerminalOutput;
  showReasoning: boolean;
  /** Spins while a model request has been sent and nothing has come back yet. */
  waiting?: WaitIndicator;
}

const maxArgumentsChars = 200;

/**
 * Renders a run live: answer text as it streams, reasoning dimmed (when asked for), and each tool call as
 * `→ fs.read {"path":"@project/README.md"}` when it starts and `← ok …` / `← error CODE: …` when it ends.
 */
export class EngineEventRenderer {
  readonly #options: EngineEventRendererOptions;
  #inReasoning = false;
  #turnText = '';
  /** Every turn's streamed text, so that an answer shown live is never printed again at the end. */
  readonly #shownTexts = new Set<string>();

  constructor(options: EngineEventRendererOptions) {
    this.#options = options;
  }

  /**
   * Whether this text was already streamed, in this turn or an earlier one: a run whose later model call fails
   * reports the earlier answer as its text, which the terminal already shows (so it is not printed twice).
   */
  hasShown(text: string): boolean {
    return text === this.#turnText.trim() || this.#turnText === text || this.#shownTexts.has(text);
  }

  readonly render = (event: EngineEvent): void => {
    const { text, info, waiting } = this.#options;
    // Only from the start of a line: the spinner redraws its line, which must not be half an answer.
    if (event.type === 'model-request' && text.atLineStart && info.atLineStart)
      waiting?.start('waiting for the model');
    else if (event.type === 'tool-call-progress' && text.atLineStart && info.atLineStart) {
      // A call being written shows no text: say what is coming, and how much of it, on the spinner's line.
      const label = `writing a call${event.name ? ` to ${event.name}` : ''}: ${event.argumentChars} characters`;
      if (waiting?.active) waiting.relabel(label);
      else waiting?.start(label);
    } else waiting?.stop();
    switch (event.type) {
      case 'turn-start':
        if (this.#turnText !== '') this.#shownTexts.add(this.#turnText);
        this.#turnText = '';
        break;
      case 'reasoning-delta':
        if (!this.#options.showReasoning) break;
        if (!this.#inReasoning) info.endLine();
        this.#inReasoning = true;
        info.writeDim(event.text);
        break;
      case 'text-delta':
        this.#closeReasoning();
        this.#turnText += event.text;
        text.write(event.text);
        break;
      case 'tool-start':
        this.#breakLines();
        info.shortLine(`→ ${event.name} ${describeArguments(event.args)}`);
        break;
      case 'tool-end':
        // A failure is shown whole: its message is what the user needs to see.
        if (event.ok) info.shortLine(`← ok ${event.summary}`);
        else info.line(`← error ${event.summary}`);
        break;
      case 'history-trimmed':
        this.#breakLines();
        info.line(`(history trimmed: ${event.droppedMessages} older messages left out to fit the context)`);
        break;
      case 'run-end':
        this.#breakLines();
        break;
      default:
        break;
    }
  };

  /** Ends any open reasoning or answer line before a line of another kind. */
  #breakLines(): void {
    this.#closeReasoning();
    this.#options.text.endLine();
  }

  #closeReasoning(): void {
    if (!this.#inReasoning) return;
    this.#inReasoning = false;
    this.#options.info.endLine();
  }
}

/** Arguments as one line of JSON, cut short so a file's content does not flood the terminal. */
export function describeArguments(args: unknown): string {
  const json = JSON.stringify(args) ?? String(args);
  return json.length > maxArgumentsChars ? `${json.slice(0, maxArgumentsChars - 1)}…` : json;
}
