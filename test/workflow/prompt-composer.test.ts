import { describe, expect, it } from 'vitest';
import { PromptComposer } from '../../src/workflow/prompt/prompt-composer.js';
import { defaultToolPolicy, mergeToolPolicy } from '../../src/workflow/prompt/tool-policy.js';
import { readWorkflowState } from '../../src/workflow/state/workflow-state.js';
import type { AgentDefinition, WorkflowGraph } from '../../src/workflow/workflow-types.js';

const graph: WorkflowGraph = {
  schemaVersion: '1.1',
  entryNodeId: 'step-01',
  nodes: [
    {
      id: 'step-01',
      type: 'step',
      file: 'steps/step-01.md',
      outputs: ['artifacts/a.md'],
      inputs: ['assets/t.md'],
    },
    { id: 'decide-02', type: 'decision', file: 'steps/decide-02.md', agentId: 'lead' },
    { id: 'end-99', type: 'end', file: 'steps/end-99.md' },
  ],
  edges: [
    { from: 'step-01', to: 'decide-02', label: 'next' },
    { from: 'decide-02', to: 'end-99', label: 'done', isDefault: true, conditionText: 'all set' },
    { from: 'decide-02', to: 'step-01', label: 'again' },
  ],
};

const agent = (id: string, extra: Partial<AgentDefinition> = {}): AgentDefinition => ({
  id,
  metadata: { name: id.toUpperCase(), title: `${id} title`, icon: '*' },
  persona: { role: 'r', identity: 'i', communication_style: 'c', principles: ['p1', 'p2'] },
  ...extra,
});

const composer = new PromptComposer({
  agents: [
    agent('writer', { tools: { fs: { maxReadBytes: 1000 } } }),
    agent('lead', { systemPrompt: 'You are the lead. Decide.', tools: { fs: { enabled: false } } }),
  ],
  activeAgentId: 'writer',
  systemPolicy: defaultToolPolicy,
  workflow: { id: 'demo', graphPath: 'workflows/demo/workflow.graph.json', graph },
  autopilot: false,
});

const stateAt = (currentNodeId: string, extra: Record<string, unknown> = {}) =>
  readWorkflowState({ schemaVersion: '1.1', workflowType: 'demo', currentNodeId, ...extra }, graph);

describe('PromptComposer', () => {
  it('run mode: base rules, the agent’s effective policy, persona, directive, brief, then USER_INPUT', () => {
    const messages = composer.compose({
      mode: 'run',
      state: stateAt(''),
      intent: 'continue',
      userInput: 'go on',
    });
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'system',
      'system',
      'user',
      'user',
      'user',
    ]);
    expect(messages[1]!.content).toContain('- fs: enabled (maxReadBytes=1000, maxWriteBytes=2097152)');
    expect(messages[2]!.content).toBe(
      'You are WRITER (writer title).\nRole: r\nIdentity: i\nCommunication style: c\nPrinciples:\n- p1\n- p2\nStay in character as WRITER for this whole step.',
    );
    expect(messages[3]!.content).toContain('- graph: @pkg/workflows/demo/workflow.graph.json');
    expect(messages[3]!.content).toContain(
      '- currentNodeId: step-01\n- effectiveAgentId: writer\n- autopilot: false',
    );
    expect(messages[4]!.content).toBe(
      [
        'NODE_BRIEF',
        '- currentNodeId: step-01 (type=step)',
        '- stepFile: @pkg/steps/step-01.md',
        '- inputsMap:',
        '  - assets/t.md -> @pkg/assets/t.md',
        '- outputsMap:',
        '  - artifacts/a.md -> @project/artifacts/a.md',
        '- allowedNext:',
        '  - decide-02 (label=next)',
      ].join('\n'),
    );
    expect(messages[5]!.content).toBe('USER_INPUT\n- forNodeId: step-01\ngo on');
  });

  it('a node’s agent wins: its own system prompt and its tighter policy, with decision rules in the brief', () => {
    const messages = composer.compose({ mode: 'run', state: stateAt('decide-02'), intent: 'resume' });
    expect(messages[1]!.content).toContain('- fs: disabled');
    expect(messages[2]!.content).toBe('You are the lead. Decide.');
    expect(messages[3]!.content).toContain('- intent: resume');
    expect(messages[4]!.content).toContain(
      '  - end-99 (label=done, default=true, conditionText="all set")\n  - step-01 (label=again)',
    );
    expect(messages[4]!.content).toContain('Decision rules:');
  });

  it('an end node not yet completed says how to finish; a complete run gets the post-run directive only', () => {
    const atEnd = composer.compose({ mode: 'run', state: stateAt('end-99'), intent: 'continue' });
    expect(atEnd[4]!.content).toContain('variables.workflowStatus to "complete"');
    const done = composer.compose({
      mode: 'run',
      state: stateAt('end-99', { stepsCompleted: ['end-99'] }),
      intent: 'continue',
      userInput: 'thanks',
    });
    expect(done.map((message) => String(message.content).split('\n')[0])).toEqual([
      expect.any(String),
      'Tool policy:',
      'You are WRITER (writer title).',
      'RUN_DIRECTIVE',
      'USER_INPUT',
    ]);
    expect(done[3]!.content).not.toContain('currentNodeId');
    expect(done[3]!.content).toContain('- runType: bmad-micro');
    expect(done[4]!.content).toBe('USER_INPUT\nthanks');
  });

  it('agent mode has a persona and no run shells; chat mode has neither', () => {
    const agentMode = composer.compose({
      mode: 'agent',
      state: stateAt(''),
      intent: 'continue',
      userInput: 'hi',
    });
    expect(agentMode.map((message) => message.role)).toEqual(['system', 'system', 'system', 'user']);
    expect(agentMode[3]!.content).toBe('USER_INPUT\nhi');
    const chat = composer.compose({ mode: 'chat', state: stateAt(''), intent: 'continue', userInput: 'hi' });
    expect(chat.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    expect(chat.some((message) => String(message.content).startsWith('You are WRITER'))).toBe(false);
  });

  it('an agent can only tighten the settings’ policy', () => {
    const merged = mergeToolPolicy(
      {
        fs: { enabled: true, maxReadBytes: 100, maxWriteBytes: 100 },
        mcp: { enabled: true, allowedServers: ['a', 'b'] },
      },
      { fs: { enabled: true, maxReadBytes: 500, maxWriteBytes: 50 }, mcp: { allowedServers: ['b', 'c'] } },
    );
    expect(merged).toEqual({
      fs: { enabled: true, maxReadBytes: 100, maxWriteBytes: 50 },
      mcp: { enabled: true, allowedServers: ['b'] },
    });
  });

  it('an unknown agent is AGENT_NOT_FOUND', () => {
    expect(() => composer.agent('ghost')).toThrow(expect.objectContaining({ code: 'AGENT_NOT_FOUND' }));
  });
});
