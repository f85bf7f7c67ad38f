// Engine benchmark: CPU the engine and its message history spend per turn, with an instant scripted model
// (no network, no real tool work), so what is measured is Spine's own overhead. CPU is process.cpuUsage
// (user + system) around whole runs; every run's outcome is checked.
import { createEngine } from '../../dist/engine/engine.js';
import { ScriptedModel } from '../../dist/testing/scripted-model.js';
import { defineTool } from '../../dist/tools/define-tool.js';
import { createToolHost } from '../../dist/tools/tool-host.js';

const echoTool = defineTool({
  name: 'fs.read',
  description: 'Reads a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }) => ({ ok: true, path, bytes: 5, content: 'hello' }),
});

/** Calls the tool on every turn but the last, which answers in text. */
function loopingModel(turns) {
  return new ScriptedModel(
    (_request, index) =>
      index + 1 < turns
        ? {
            toolCalls: [{ name: 'fs_read', arguments: { path: `notes/${index}.md` } }],
            usage: { promptTokens: 1000 },
          }
        : { text: 'done' },
    { record: false },
  );
}

function seedHistory(size) {
  const messages = [
    { role: 'system', content: 'You are a careful agent. Use the tools.' },
    { role: 'user', content: 'Summarize the notes folder.' },
  ];
  for (let index = 0; messages.length < size; index += 1) {
    const id = `seed_${index}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id, type: 'function', function: { name: 'fs_read', arguments: `{"path":"notes/${index}.md"}` } },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: id,
      content: JSON.stringify({ ok: true, path: `notes/${index}.md`, content: 'x'.repeat(200) }),
    });
  }
  return messages.slice(0, size);
}

async function measure({ turns, seed, history }) {
  const engine = createEngine({
    llm: loopingModel(turns),
    tools: createToolHost([echoTool]),
    maxTurns: turns,
    history,
  });
  const messages = seedHistory(seed);
  const before = process.cpuUsage();
  const started = performance.now();
  const result = await engine.run({ messages });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(before);
  if (result.phase !== 'WaitingUser' || result.turns !== turns || result.assistantText !== 'done') {
    throw new Error(
      `engine bench run ended badly: ${JSON.stringify({ phase: result.phase, turns: result.turns, error: result.error })}`,
    );
  }
  return {
    cpuMsPerTurn: (cpu.user + cpu.system) / 1000 / turns,
    wallMsPerTurn: wallMs / turns,
    finalMessages: result.messages.length,
  };
}

async function best(options, repeats = 3) {
  let winner;
  for (let index = 0; index < repeats; index += 1) {
    const figures = await measure(options);
    if (winner === undefined || figures.cpuMsPerTurn < winner.cpuMsPerTurn) winner = figures;
  }
  return winner;
}

const format = (value, digits = 3) => value.toFixed(digits);

export async function run() {
  await measure({ turns: 200, seed: 2 }); // warm-up: JIT, module loading
  const scenarios = [
    { name: '1,000-turn run (2 → 2,000 messages)', turns: 1000, seed: 2 },
    { name: 'history 200 (100 turns)', turns: 100, seed: 200 },
    { name: 'history 10,000 (100 turns)', turns: 100, seed: 10_000 },
    {
      name: 'history 10,000, trimmed to 64k tokens',
      turns: 100,
      seed: 10_000,
      history: { contextLength: 64_000 },
    },
  ];
  const rows = [];
  for (const scenario of scenarios) rows.push({ scenario, figures: await best(scenario) });
  console.log('\n## Engine: overhead per turn (instant scripted model, one tool call per turn)\n');
  console.log('| scenario | CPU ms/turn | wall ms/turn | messages at end |');
  console.log('| --- | --- | --- | --- |');
  for (const { scenario, figures } of rows) {
    console.log(
      `| ${scenario.name} | ${format(figures.cpuMsPerTurn)} | ${format(figures.wallMsPerTurn)} | ${figures.finalMessages} |`,
    );
  }
  const small = rows[1].figures.cpuMsPerTurn;
  const large = rows[2].figures.cpuMsPerTurn;
  console.log(
    `\nGrowth 200 → 10,000 messages (50x): CPU per turn x${format(large / small, 2)} ` +
      `(linear would be at most ~50x, quadratic ~2,500x). Target under 1 ms/turn at 200: ${small < 1 ? 'met' : 'MISSED'}.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
