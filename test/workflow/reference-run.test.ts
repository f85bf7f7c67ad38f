import { existsSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/llm/model-client.js';
import { createRun } from '../../src/workflow/run/create-run.js';
import { openRunPackage } from '../../src/workflow/run/open-run-package.js';
import { resumeRun } from '../../src/workflow/run/resume-run.js';
import type { WorkflowEvent } from '../../src/workflow/run/workflow-events.js';
import { type FakeRunner, startFakeRunner } from '../support/fake-runner.js';
import {
  finalArtifacts,
  firstPump,
  s01,
  s02,
  s03,
  s04,
  s05,
  secondPump,
  storyKey,
} from './reference-run-script.js';
import {
  makeReferenceProject,
  referencePackage,
  statePatch,
  textAnswer,
  toolCallAnswer,
} from './workflow-test-kit.js';

let runner: FakeRunner;
beforeEach(async () => {
  runner = await startFakeRunner();
});
afterEach(async () => {
  await runner.close();
});

const llm = () => createModelClient({ baseUrl: runner.baseUrl, model: 'fake-model', maxRetries: 0 });

interface SentMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
}

const sentMessages = (index: number) =>
  (runner.requests[index]!.body as { messages: SentMessage[] }).messages;

describe('the reference run (docs/workflows.md §5)', () => {
  it('waits for the story key after C02, completes after the answer, and leaves exactly the final state and six files', async () => {
    const project = makeReferenceProject();
    const events: WorkflowEvent[] = [];
    runner.enqueue(...firstPump(), ...secondPump());
    const run = await createRun(await openRunPackage(referencePackage), {
      project,
      llm: llm(),
      write: true,
      autopilot: true,
      agentId: 'sm',
      onEvent: (event) => events.push(event),
    });
    const first = await run.pump();
    expect(first).toMatchObject({ phase: 'WaitingUser', currentNodeId: s01, turns: 2 });
    expect(first.assistantText).toContain(storyKey);
    expect(runner.requests).toHaveLength(2);

    const second = await run.pump({ input: storyKey });
    run.close();
    expect(second.phase).toBe('Completed');
    expect(second.turns).toBe(8);
    expect(runner.requests).toHaveLength(10);
    expect(second.state).toEqual({
      currentNodeId: 'end-99',
      stepsCompleted: [s01, s02, s03, s04, s05, 'end-99'],
      variables: {
        storyKey,
        epicNum: '1',
        storyNum: '2',
        storyTitle: 'user-authentication',
        sprintStatusPath: '',
        epicsPath: 'artifacts/epics.md',
        prdPath: 'artifacts/PRD.md',
        architecturePath: 'artifacts/architecture.md',
        uxPath: 'artifacts/ux.md',
        projectContextPath: 'project-context.md',
        storySummary: 'Users sign in with email and password before seeing any project.',
        storyFile: `artifacts/stories/${storyKey}.md`,
        workflowStatus: 'complete',
      },
      decisionLog: [],
      artifacts: finalArtifacts,
    });
    for (const artifact of finalArtifacts) expect(existsSync(join(project, artifact))).toBe(true);
    const state = readFileSync(join(run.runDir, 'workflow.md'), 'utf8');
    expect(state).toContain('# Create a story (micro)');

    // C01: base rules, tool policy, persona Bob (one system message: this runner's preset merges them), then
    // RUN_DIRECTIVE (start) and NODE_BRIEF.
    const c01 = sentMessages(0);
    expect(c01.map((message) => message.role)).toEqual(['system', 'user', 'user']);
    const layers = c01[0]!.content!.split('\n\n');
    expect(layers[0]).toMatch(/^You are executing a document-as-state workflow/);
    expect(layers[1]).toContain(
      '- fs: enabled (maxReadBytes=524288, maxWriteBytes=2097152)\n- mcp: disabled',
    );
    expect(layers[2]).toMatch(/^You are Bob \(Scrum Master\)\./);
    expect(c01[1]!.content).toMatch(/^RUN_DIRECTIVE\n- runType: bmad-micro\n- intent: start\n/);
    expect(c01[1]!.content).toContain(`- currentNodeId: ${s01}\n- effectiveAgentId: sm\n- autopilot: true`);
    expect(c01[1]!.content).toContain('- graph: @pkg/workflow.graph.json');
    expect(c01[2]!.content).toBe(
      [
        'NODE_BRIEF',
        `- currentNodeId: ${s01} (type=step)`,
        `- stepFile: @pkg/steps/${s01}.md`,
        '- outputsMap:',
        '  - artifacts/create-story/target.md -> @project/artifacts/create-story/target.md',
        '- allowedNext:',
        `  - ${s02} (label=next)`,
      ].join('\n'),
    );

    // C02 carries C01's five tool results; the sprint status read failed with ENOENT.
    const c02 = sentMessages(1);
    const results = c02.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(5);
    expect(JSON.parse(results[4]!.content!)).toMatchObject({ ok: false, error: { code: 'ENOENT' } });
    expect(JSON.parse(results[3]!.content!).entries).toEqual(
      expect.arrayContaining(['epics.md', 'PRD.md', 'architecture.md', 'ux.md', 'create-story/']),
    );

    // C03: the directive continues at s01, then the history with the user's answer as USER_INPUT.
    const c03 = sentMessages(2);
    expect(c03[1]!.content).toMatch(/- intent: continue\n/);
    expect(c03.at(-1)).toEqual({
      role: 'user',
      content: `USER_INPUT\n- forNodeId: ${s01}\n${storyKey}`,
    });
    // The shells are composed for each call and never kept in the history: one directive per request.
    for (let index = 0; index < 10; index += 1) {
      const directives = sentMessages(index).filter((message) =>
        message.content?.startsWith('RUN_DIRECTIVE'),
      );
      expect(directives).toHaveLength(1);
    }

    // C08 stands on the end node: persona Sam, the summarizer.
    const c08 = sentMessages(7);
    expect(c08[0]!.content).toContain('\n\nYou are Sam (Summarizer).');
    expect(c08[1]!.content).toContain('- currentNodeId: end-99\n- effectiveAgentId: summarizer');
    // C09 comes after completion: the post-run protocol, no currentNodeId, no brief.
    const c09 = sentMessages(9);
    expect(c09[1]!.content).not.toContain('currentNodeId');
    expect(c09[1]!.content).toContain('Protocol (post-run):');
    expect(c09.filter((message) => message.content?.startsWith('NODE_BRIEF'))).toHaveLength(0);

    // No real path ever reaches the model.
    for (const request of runner.requests) {
      expect(request.rawBody).not.toContain(project);
      expect(request.rawBody).not.toContain(referencePackage);
      expect(request.rawBody).not.toContain(run.runDir);
      expect(request.rawBody).not.toContain(homedir());
    }

    // Progress events: every node change, in order, and the two stops.
    const moves = events.flatMap((event) =>
      event.type === 'workflow-progress' && event.from !== event.currentNodeId ? [event.currentNodeId] : [],
    );
    expect(moves).toEqual([s02, s03, s04, s05, 'end-99']);
    expect(
      events
        .filter((event) => event.type === 'workflow-phase')
        .map((event) => (event as { phase: string }).phase),
    ).toEqual(['WaitingUser', 'Completed']);
    const record = JSON.parse(readFileSync(join(run.runDir, 'run.json'), 'utf8'));
    expect(record).toMatchObject({
      phase: 'completed',
      currentNodeId: 'end-99',
      stepsDone: 6,
      workflowId: 'create-story-micro',
    });
  });

  it('an illegal transition gets E_INVALID_TRANSITION with allowedNext, and the state file is untouched', async () => {
    const project = makeReferenceProject();
    const snapshots: string[] = [];
    const statePath = () => join(run.runDir, 'workflow.md');
    runner.enqueue(
      ...firstPump(),
      secondPump()[0]!,
      () => {
        snapshots.push(readFileSync(statePath(), 'utf8'));
        return toolCallAnswer(
          [statePatch({ stepsCompleted: { append: [s02] }, currentNodeId: { set: s04 } })],
          16,
        );
      },
      () => {
        snapshots.push(readFileSync(statePath(), 'utf8'));
        return textAnswer('I could not move on.');
      },
    );
    const run = await createRun(await openRunPackage(referencePackage), {
      project,
      llm: llm(),
      write: true,
      autopilot: true,
    });
    await run.pump();
    const result = await run.pump({ input: storyKey });
    run.close();
    expect(result).toMatchObject({ phase: 'WaitingUser', currentNodeId: s02 });
    const toolMessage = sentMessages(4).at(-1)!;
    expect(toolMessage.tool_call_id).toBe('tc16');
    expect(JSON.parse(toolMessage.content!)).toEqual({
      ok: false,
      error: {
        code: 'E_INVALID_TRANSITION',
        message: expect.stringContaining(`Invalid transition: ${s02} → ${s04}`),
        details: { from: s02, to: s04, allowedNext: [{ to: s03, label: 'next' }] },
      },
    });
    expect(snapshots).toHaveLength(2);
    expect(snapshots[1]).toBe(snapshots[0]);
    expect(result.state.stepsCompleted).toEqual([s01]);
  });

  it('a run reopened by resumeRun goes on from its state file alone, with intent resume', async () => {
    const project = makeReferenceProject();
    runner.enqueue(...firstPump(), ...secondPump());
    const pkg = await openRunPackage(referencePackage);
    const run = await createRun(pkg, { project, llm: llm(), write: true, autopilot: true, agentId: 'sm' });
    await run.pump();
    run.close();
    // The conversation log is gone: the position still comes from the state and the graph.
    rmSync(join(run.runDir, 'conversation.jsonl'));
    const resumed = await resumeRun(run.runId, {
      project,
      llm: llm(),
      openPackage: async () => pkg,
    });
    const result = await resumed.pump({ input: storyKey });
    resumed.close();
    expect(result.phase).toBe('Completed');
    expect(result.state.artifacts).toEqual(finalArtifacts);
    const c03 = sentMessages(2);
    expect(c03[1]!.content).toMatch(/- intent: resume\n/);
    expect(c03.slice(3)).toEqual([{ role: 'user', content: `USER_INPUT\n- forNodeId: ${s01}\n${storyKey}` }]);
  });

  it('a second engine on a live run is RUN_LOCKED', async () => {
    const project = makeReferenceProject();
    const pkg = await openRunPackage(referencePackage);
    const run = await createRun(pkg, { project, llm: llm(), write: true });
    await expect(
      resumeRun(run.runId, { project, llm: llm(), openPackage: async () => pkg }),
    ).rejects.toMatchObject({ code: 'RUN_LOCKED' });
    run.close();
    const again = await resumeRun(run.runId, { project, llm: llm(), openPackage: async () => pkg });
    again.close();
  });
});
