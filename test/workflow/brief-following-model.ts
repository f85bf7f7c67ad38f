import type { RecordedRequest, ScriptedResponse } from '../support/fake-runner.js';
import { textAnswer, toolCallAnswer, updatedAt } from './workflow-test-kit.js';

// A scripted model that does what any package's NODE_BRIEF asks, from the request alone: it writes each of
// the node's project outputs, then records the node and moves to the first allowed next node (a decision
// also gets its decisionLog entry; an end node marks the workflow complete). Enough to drive a package we did
// not write a script for, such as the example in examples/.
interface Message {
  role: string;
  content: string | null;
  tool_call_id?: string;
}

export function followBrief(request: RecordedRequest): ScriptedResponse {
  const messages = (request.body as { messages: Message[] }).messages;
  const brief = messages.find((message) => message.content?.startsWith('NODE_BRIEF'))?.content;
  if (brief === undefined || brief === null) return textAnswer('The workflow is complete.');
  const node = /- currentNodeId: (\S+) \(type=(\w+)\)/.exec(brief);
  if (node === null) return textAnswer('I cannot read the brief.');
  const [, nodeId, type] = node as unknown as [string, string, string];
  const outputs = [...section(brief, 'outputsMap').matchAll(/-> (@project\/\S+)/g)].map((match) => match[1]!);
  const next = /^ {2}- (\S+) \(label=([^,)]+)/m.exec(section(brief, 'allowedNext'));
  const last = messages.at(-1);
  const turn = messages.length;
  if (outputs.length > 0 && !(last?.role === 'tool' && last.tool_call_id?.startsWith(`write-${nodeId}-`))) {
    return toolCallAnswer(
      outputs.map((path) => ['fs.write', { path, content: `# ${nodeId}\n\nWritten for ${nodeId}.\n` }]),
      0,
      (index) => `write-${nodeId}-${turn}-${index}`,
    );
  }
  const update: Record<string, unknown> = {
    stepsCompleted: { append: [nodeId] },
    artifacts: { append: outputs.map((path) => path.slice('@project/'.length)) },
    updatedAt: { set: updatedAt },
  };
  if (type === 'end') update.variables = { set: { workflowStatus: 'complete' } };
  else if (next !== null) update.currentNodeId = { set: next[1] };
  if (type === 'decision' && next !== null)
    update.decisionLog = {
      append: [{ from: nodeId, to: next[1], label: next[2], reason: 'the first allowed branch' }],
    };
  return toolCallAnswer(
    [['fs.apply_patch', { path: '@state/workflow.md', operation: 'updateFrontmatter', update }]],
    0,
    (index) => `patch-${nodeId}-${turn}-${index}`,
  );
}

function section(brief: string, name: string): string {
  const start = brief.indexOf(`- ${name}:\n`);
  if (start < 0) return '';
  const rest = brief.slice(start + name.length + 4);
  const end = rest.search(/^- /m);
  return end < 0 ? rest : rest.slice(0, end);
}
