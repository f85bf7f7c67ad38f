import { describe, expect, it } from 'vitest';
import { describeArguments, EngineEventRenderer } from '../../src/cli/render-engine-events.js';
import { type OutputStream, TerminalOutput } from '../../src/cli/terminal-output.js';
import type { WaitIndicator } from '../../src/cli/wait-indicator.js';
import type { EngineEvent } from '../../src/engine/engine-events.js';

function sink(isTTY = false): OutputStream & { text: string } {
  return {
    text: '',
    isTTY,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

const at = { runId: 'r', turnId: 'C01' };
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, latencyMs: 1 };

function play(renderer: EngineEventRenderer, events: EngineEvent[]): void {
  for (const event of events) renderer.render(event);
}

const toolTurn: EngineEvent[] = [
  { type: 'turn-start', ...at, turn: 1 },
  { type: 'reasoning-delta', ...at, text: 'I should read it.' },
  { type: 'text-delta', ...at, text: 'Let me look.' },
  { type: 'tool-start', ...at, toolCallId: 'c1', name: 'fs.read', args: { path: '@project/a.md' } },
  {
    type: 'tool-end',
    ...at,
    toolCallId: 'c1',
    name: 'fs.read',
    ok: false,
    durationMs: 1,
    summary: 'ENOENT: no such file',
    result: { ok: false, error: { code: 'ENOENT', message: 'no such file' } },
  },
  { type: 'model-response', ...at, usage, finishReason: 'tool_calls', toolCallCount: 1 },
  { type: 'turn-start', ...at, turnId: 'C02', turn: 2 },
  { type: 'text-delta', ...at, turnId: 'C02', text: 'It is missing.' },
  { type: 'run-end', runId: 'r', phase: 'WaitingUser', success: true, turns: 2 },
];

describe('EngineEventRenderer', () => {
  it('puts text, tool lines and reasoning on their own lines of one output (chat)', () => {
    const stream = sink();
    const output = new TerminalOutput(stream);
    const renderer = new EngineEventRenderer({ text: output, info: output, showReasoning: true });
    play(renderer, toolTurn);
    expect(stream.text).toBe(
      [
        'I should read it.',
        'Let me look.',
        '→ fs.read {"path":"@project/a.md"}',
        '← error ENOENT: no such file',
        'It is missing.',
        '',
      ].join('\n'),
    );
    // Both turns' texts count as shown: a run that fails later must not print either again.
    expect(renderer.hasShown('It is missing.')).toBe(true);
    expect(renderer.hasShown('Let me look.')).toBe(true);
    expect(renderer.hasShown('Something never streamed.')).toBe(false);
  });

  it('sends the answer to one stream and the rest to another (ask), hiding reasoning unless asked', () => {
    const stdout = sink();
    const stderr = sink();
    const renderer = new EngineEventRenderer({
      text: new TerminalOutput(stdout),
      info: new TerminalOutput(stderr),
      showReasoning: false,
    });
    play(renderer, toolTurn);
    expect(stdout.text).toBe('Let me look.\nIt is missing.\n');
    expect(stderr.text).toBe('→ fs.read {"path":"@project/a.md"}\n← error ENOENT: no such file\n');
  });

  it('dims reasoning with ANSI codes only on a terminal', () => {
    const terminal = sink(true);
    const output = new TerminalOutput(terminal, {});
    play(new EngineEventRenderer({ text: output, info: output, showReasoning: true }), toolTurn.slice(0, 3));
    expect(terminal.text).toBe('\u001b[2mI should read it.\u001b[22m\nLet me look.');
  });

  it('writes no escape codes on a terminal when NO_COLOR is set', () => {
    const terminal = sink(true);
    const output = new TerminalOutput(terminal, { NO_COLOR: '1' });
    play(new EngineEventRenderer({ text: output, info: output, showReasoning: true }), toolTurn.slice(0, 3));
    expect(terminal.text).toBe('I should read it.\nLet me look.');
  });

  it('spins while a request waits, from the start of a line only, and stops at the first event back', () => {
    const calls: string[] = [];
    const waiting = {
      start: (label: string) => calls.push(`start ${label}`),
      stop: () => calls.push('stop'),
    } as unknown as WaitIndicator;
    const output = new TerminalOutput(sink());
    const renderer = new EngineEventRenderer({ text: output, info: output, showReasoning: false, waiting });
    const request: EngineEvent = {
      type: 'model-request',
      ...at,
      messageCount: 1,
      toolCount: 0,
      estimatedTokens: 10,
    };
    play(renderer, [request, { type: 'text-delta', ...at, text: 'half a line' }, request]);
    expect(calls).toEqual(['start waiting for the model', 'stop', 'stop']);
  });

  it('shows a tool call being written, with its name and size, on the spinner line', () => {
    const calls: string[] = [];
    let active = false;
    const waiting = {
      get active() {
        return active;
      },
      start: (label: string) => {
        active = true;
        calls.push(`start ${label}`);
      },
      relabel: (label: string) => calls.push(`relabel ${label}`),
      stop: () => {
        active = false;
        calls.push('stop');
      },
    } as unknown as WaitIndicator;
    const output = new TerminalOutput(sink());
    const renderer = new EngineEventRenderer({ text: output, info: output, showReasoning: false, waiting });
    const progress = (name: string | undefined, argumentChars: number): EngineEvent => ({
      type: 'tool-call-progress',
      ...at,
      name,
      argumentChars,
    });
    play(renderer, [
      progress(undefined, 0),
      progress('fs_list', 12),
      { type: 'text-delta', ...at, text: 'x' },
    ]);
    expect(calls).toEqual([
      'start writing a call: 0 characters',
      'relabel writing a call to fs_list: 12 characters',
      'stop',
    ]);
  });

  it('cuts long arguments short', () => {
    const described = describeArguments({ path: '@project/a.md', content: 'x'.repeat(1000) });
    expect(described).toHaveLength(200);
    expect(described.endsWith('…')).toBe(true);
    expect(describeArguments({ a: 1 })).toBe('{"a":1}');
  });
});
