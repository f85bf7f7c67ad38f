import type { RecordedRequest, ScriptedResponse } from '../support/fake-runner.js';
import { textAnswer, toolCallAnswer, updatedAt } from './workflow-test-kit.js';

// A model for the notes-digest package that decides each answer from the request alone: the node the
// RUN_DIRECTIVE names and the last message. So it plays the same run however often the process is killed
// and resumed — the property a crash suite needs. Per node: write the node's output, then patch the state.
const decidedAt = '2025-12-25T00:00:00Z';
const plan: Record<string, { output: string; content: string; update: Record<string, unknown> }> = {
  'step-01-collect': {
    output: 'artifacts/digest/collected.md',
    content: '# Collected\n\n- notes/a.md\n- notes/b.md\n- notes/c.md\n',
    update: {
      stepsCompleted: { append: ['step-01-collect'] },
      variables: { set: { noteCount: 3 } },
      currentNodeId: { set: 'decide-02-length' },
    },
  },
  'decide-02-length': {
    output: 'artifacts/digest/decision.md',
    content: '# Decision\n\nThree notes: a long digest.\n',
    update: {
      stepsCompleted: { append: ['decide-02-length'] },
      variables: { set: { length: 'long' } },
      decisionLog: {
        append: [
          { from: 'decide-02-length', to: 'step-03b-long', label: 'long', reason: '3 notes', decidedAt },
        ],
      },
      currentNodeId: { set: 'step-03b-long' },
    },
  },
  'step-03b-long': {
    output: 'artifacts/digest/digest.md',
    content: '# Digest\n\n1. Alpha.\n2. Beta.\n3. Gamma.\n',
    update: { stepsCompleted: { append: ['step-03b-long'] }, currentNodeId: { set: 'end-99' } },
  },
  'end-99': {
    output: 'artifacts/digest/summary.md',
    content: '# Summary\n\n- artifacts/digest/digest.md\n',
    update: { stepsCompleted: { append: ['end-99'] }, variables: { set: { workflowStatus: 'complete' } } },
  },
};

export const digestArtifacts = Object.values(plan).map((step) => step.output);

interface Message {
  role: string;
  content: string | null;
  tool_call_id?: string;
}

export function autopilotAnswer(request: RecordedRequest): ScriptedResponse {
  const messages = (request.body as { messages: Message[] }).messages;
  const directive = messages.find((message) => message.content?.startsWith('RUN_DIRECTIVE'))?.content ?? '';
  const node = /- currentNodeId: (\S+)/.exec(directive)?.[1];
  if (node === undefined) return textAnswer('The digest is written: artifacts/digest/digest.md.');
  const step = plan[node];
  if (step === undefined) return textAnswer(`I do not know node ${node}.`);
  const last = messages.at(-1);
  const id = messages.length;
  const wroteThisNode =
    last?.role === 'tool' &&
    last.tool_call_id?.startsWith(`write-${node}-`) &&
    last.content?.includes('"ok":true');
  if (!wroteThisNode) {
    return toolCallAnswer(
      [['fs.write', { path: `@project/${step.output}`, content: step.content }]],
      0,
      (index) => `write-${node}-${id}-${index}`,
    );
  }
  const update = {
    ...step.update,
    artifacts: { append: [step.output] },
    updatedAt: { set: updatedAt },
  };
  return toolCallAnswer(
    [['fs.apply_patch', { path: '@state/workflow.md', operation: 'updateFrontmatter', update }]],
    0,
    (index) => `patch-${node}-${id}-${index}`,
  );
}
