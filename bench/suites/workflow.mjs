// Workflow run costs (issue 11): composing the prompt of one model call and guarding one state write, for a
// 100-node graph and a 50 KB state file. Goal: each under 0.5 ms CPU. The baseline is parsing the same state's
// YAML frontmatter alone, measured in the same run: a state the run has read, or a patch has produced, is
// parsed once and remembered; only a whole-file fs.write by the model brings a text nobody has parsed yet.
import { parse as parseYaml } from 'yaml';
import { PromptComposer } from '../../dist/workflow/prompt/prompt-composer.js';
import { defaultToolPolicy } from '../../dist/workflow/prompt/tool-policy.js';
import { guardStateWrite } from '../../dist/workflow/state/guard-state-write.js';
import { parseStateDocument } from '../../dist/workflow/state/state-document.js';
import { readWorkflowState } from '../../dist/workflow/state/workflow-state.js';

const nodeCount = 100;
const ids = Array.from({ length: nodeCount }, (_, index) => `step-${String(index).padStart(3, '0')}`);
const graph = {
  schemaVersion: '1.1',
  entryNodeId: ids[0],
  nodes: ids.map((id, index) => ({
    id,
    type: index === nodeCount - 1 ? 'end' : index % 10 === 5 ? 'decision' : 'step',
    file: `steps/${id}.md`,
    outputs: [`artifacts/out/${id}.md`],
  })),
  edges: ids.slice(1).flatMap((id, index) => {
    const from = ids[index];
    const edges = [{ from, to: id, label: 'next', isDefault: true }];
    if (index % 10 === 5 && index + 3 < nodeCount) edges.push({ from, to: ids[index + 3], label: 'skip' });
    return edges;
  }),
};

// 50 KB of state: half the steps done, their artifacts, and variables with some bulk.
const done = ids.slice(0, 50);
const variables = Object.fromEntries(
  Array.from({ length: 240 }, (_, index) => [`note${index}`, `value ${index} `.repeat(20)]),
);
function stateText(current, steps) {
  const lines = [
    '---',
    'schemaVersion: "1.1"',
    'workflowType: bench',
    `currentNodeId: ${current}`,
    `updatedAt: "2025-12-25T00:00:00Z"`,
    `stepsCompleted: [${steps.join(', ')}]`,
    `artifacts: [${steps.map((id) => `artifacts/out/${id}.md`).join(', ')}]`,
    'decisionLog: []',
    'variables:',
    ...Object.entries(variables).map(([key, value]) => `  ${key}: "${value}"`),
    '---',
    '# Body',
    '',
  ];
  return lines.join('\n');
}
const current = stateText(ids[50], done);
const next = stateText(ids[51], [...done, ids[50]]);

const composer = new PromptComposer({
  agents: [
    {
      id: 'a',
      metadata: { name: 'A', title: 'Agent', icon: '*' },
      persona: { role: 'r', identity: 'i', communication_style: 'c', principles: 'p' },
    },
  ],
  activeAgentId: 'a',
  systemPolicy: defaultToolPolicy,
  workflow: { id: 'bench', graphPath: 'workflow.graph.json', graph },
  autopilot: true,
});

function cpuPerCall(work, iterations) {
  for (let index = 0; index < 50; index += 1) work();
  const start = process.cpuUsage();
  for (let index = 0; index < iterations; index += 1) work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / iterations;
}

export async function run() {
  const state = readWorkflowState(parseStateDocument(current, 'bench').frontmatter, graph);
  const frontmatterText = current.split('---\n')[1];
  const baseline = cpuPerCall(() => parseYaml(frontmatterText), 300);
  const compose = cpuPerCall(() => composer.compose({ mode: 'run', state, intent: 'continue' }), 2000);
  const readAndCompose = cpuPerCall(() => {
    const read = readWorkflowState(parseStateDocument(current, 'bench').frontmatter, graph);
    composer.compose({ mode: 'run', state: read, intent: 'continue' });
  }, 2000);
  // A patch: the run read the state before the call and the patch produced the new text, both parsed once.
  const guard = cpuPerCall(() => guardStateWrite(graph, current, next, '@state/workflow.md'), 2000);
  // A whole-file fs.write: the model's new text is parsed here (a different text each time).
  let version = 0;
  const guardWrite = cpuPerCall(() => {
    version += 1;
    guardStateWrite(graph, current, `${next}v${version}\n`, '@state/workflow.md');
  }, 300);
  console.log(
    `state file ${(current.length / 1024).toFixed(0)} KB, graph ${nodeCount} nodes, ${graph.edges.length} edges`,
  );
  console.log('operation                       | CPU per call | × YAML parse of the state');
  const row = (name, ms) =>
    console.log(
      `${name.padEnd(31)} | ${ms.toFixed(3).padStart(8)} ms | ${(ms / baseline).toFixed(2).padStart(5)}×`,
    );
  row('parse the state YAML (baseline)', baseline);
  row('compose one call’s prompt', compose);
  row('read the state + compose', readAndCompose);
  row('guard a state patch', guard);
  row('guard a whole-file fs.write', guardWrite);
}
