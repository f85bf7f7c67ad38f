import type { ChatSession } from './chat-session.js';
import type { TerminalOutput } from './terminal-output.js';

export interface ChatCommandContext {
  session: ChatSession;
  output: TerminalOutput;
  modelDescription: string;
}

export type ChatCommandOutcome = 'continue' | 'exit';

const help = [
  'Type a message to talk to the model; the conversation carries on until /reset.',
  '  /tools   the tools the model can call',
  '  /model   the model in use',
  '  /reset   start a new conversation (a new run folder)',
  '  /help    this list',
  '  /exit    leave (also Ctrl+D, or Ctrl+C twice at the prompt)',
  'Ctrl+C while the model is working cancels that turn.',
];

/** True when a line is a slash command rather than a message. */
export function isChatCommand(line: string): boolean {
  return /^\/[a-z]+(\s|$)/i.test(line);
}

/** Runs `/reset`, `/tools`, `/model`, `/help` or `/exit`. */
export async function runChatCommand(line: string, context: ChatCommandContext): Promise<ChatCommandOutcome> {
  const name = line.trim().split(/\s+/)[0]?.toLowerCase();
  const { session, output } = context;
  switch (name) {
    case '/exit':
    case '/quit':
      return 'exit';
    case '/help':
      for (const text of help) output.line(text);
      return 'continue';
    case '/model':
      output.line(context.modelDescription);
      return 'continue';
    case '/reset':
      session.reset();
      output.line(`new conversation (run ${session.runId})`);
      return 'continue';
    case '/tools':
      await printTools(context);
      return 'continue';
    default:
      output.line(`unknown command ${name}; /help lists the commands`);
      return 'continue';
  }
}

async function printTools({ session, output }: ChatCommandContext): Promise<void> {
  const tools = await session.visibleTools();
  if (tools.length === 0) output.line('no tools (--no-fs and no --tools-module)');
  const width = Math.max(0, ...tools.map((tool) => tool.name.length));
  for (const tool of tools) output.line(`${tool.name.padEnd(width)}  ${firstSentence(tool.description)}`);
}

function firstSentence(text: string): string {
  const sentence = text.split(/(?<=\.)\s|\n/)[0] ?? '';
  return sentence.length > 90 ? `${sentence.slice(0, 89)}…` : sentence;
}
