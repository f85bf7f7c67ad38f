import type { ScriptedResponse } from '../support/fake-runner.js';
import { type ScriptedCall, statePatch, textAnswer, toolCallAnswer } from './workflow-test-kit.js';

// The reference run of docs/workflows.md §5 as a scripted model: ten answers, C01 … C09 with C08b.
export const s01 = 'step-01-select-story';
export const s02 = 'step-02-discover-inputs';
export const s03 = 'step-03-extract-context';
export const s04 = 'step-04-generate-story';
export const s05 = 'step-05-update-sprint-status';
const A = '@project/artifacts/';

export const storyKey = '1-2-user-authentication';

const targetMd = `# Target story\n\n- storyKey: ${storyKey}\n- epicNum: 1\n- storyNum: 2\n- storyTitle: user-authentication\n- sprintStatusPath: not found\n- reason: given by the user (no sprint-status.yaml)\n`;

/** C01 and C02: the first pump, which ends waiting for the story key. */
export function firstPump(): ScriptedResponse[] {
  return [
    toolCallAnswer(
      [
        ['fs.read', { path: '@state/workflow.md' }],
        ['fs.read', { path: '@pkg/workflow.graph.json' }],
        ['fs.read', { path: `@pkg/steps/${s01}.md` }],
        ['fs.list', { path: '@project/artifacts' }],
        ['fs.read', { path: `${A}sprint-status.yaml` }],
      ],
      1,
    ),
    textAnswer(`There is no sprint status file. Which story should I prepare? For example: ${storyKey}`),
  ];
}

/** C03 … C09: the second pump, after the user's answer; `c04Patch` lets a variant break the transition. */
export function secondPump(options: { c04Target?: string } = {}): ScriptedResponse[] {
  const c03: ScriptedCall[] = [
    ['fs.write', { path: `${A}create-story/target.md`, content: targetMd }],
    statePatch({
      stepsCompleted: { append: [s01] },
      variables: {
        set: {
          storyKey,
          epicNum: '1',
          storyNum: '2',
          storyTitle: 'user-authentication',
          sprintStatusPath: '',
        },
      },
      currentNodeId: { set: s02 },
      artifacts: { append: ['artifacts/create-story/target.md'] },
    }),
  ];
  const c04: ScriptedCall[] = [
    ['fs.read', { path: `@pkg/steps/${s02}.md` }],
    ['fs.list', { path: '@project/artifacts' }],
    ['fs.read', { path: `${A}epics.md` }],
    ['fs.read', { path: `${A}PRD.md` }],
    ['fs.read', { path: `${A}architecture.md` }],
    ['fs.read', { path: `${A}ux.md` }],
    ['fs.read', { path: '@project/project-context.md' }],
    [
      'fs.write',
      {
        path: `${A}create-story/inputs.md`,
        content:
          '# Inputs\n\nFound: epics.md, PRD.md, architecture.md, ux.md, project-context.md\nMissing: sprint-status.yaml\n',
      },
    ],
    statePatch({
      stepsCompleted: { append: [s02] },
      variables: {
        set: {
          epicsPath: 'artifacts/epics.md',
          prdPath: 'artifacts/PRD.md',
          architecturePath: 'artifacts/architecture.md',
          uxPath: 'artifacts/ux.md',
          projectContextPath: 'project-context.md',
        },
      },
      currentNodeId: { set: options.c04Target ?? s03 },
      artifacts: { append: ['artifacts/create-story/inputs.md'] },
    }),
  ];
  const c05: ScriptedCall[] = [
    ['fs.read', { path: `@pkg/steps/${s03}.md` }],
    ['fs.read', { path: `${A}epics.md` }],
    ['fs.read', { path: `${A}PRD.md` }],
    ['fs.read', { path: `${A}architecture.md` }],
    ['fs.read', { path: `${A}ux.md` }],
    ['fs.read', { path: '@project/project-context.md' }],
    [
      'fs.write',
      {
        path: `${A}create-story/context.md`,
        content: '# Context\n\nUsers sign in with email and password; sessions are server-side.\n',
      },
    ],
    statePatch({
      stepsCompleted: { append: [s03] },
      variables: {
        set: { storySummary: 'Users sign in with email and password before seeing any project.' },
      },
      currentNodeId: { set: s04 },
      artifacts: { append: ['artifacts/create-story/context.md'] },
    }),
  ];
  const storyPath = `artifacts/stories/${storyKey}.md`;
  const c06: ScriptedCall[] = [
    ['fs.read', { path: `@pkg/steps/${s04}.md` }],
    ['fs.read', { path: '@pkg/assets/story-template.md' }],
    ['fs.read', { path: `${A}create-story/context.md` }],
    [
      'fs.write',
      {
        path: `@project/${storyPath}`,
        content: `# Story ${storyKey}: user-authentication\n\nStatus: ready-for-design\n`,
      },
    ],
    statePatch({
      stepsCompleted: { append: [s04] },
      variables: { set: { storyFile: storyPath } },
      currentNodeId: { set: s05 },
      artifacts: { append: [storyPath] },
    }),
    ['fs.list', { path: `${A}stories` }],
  ];
  const c07: ScriptedCall[] = [
    ['fs.read', { path: `@pkg/steps/${s05}.md` }],
    ['fs.read', { path: `${A}sprint-status.yaml` }],
    [
      'fs.write',
      {
        path: `${A}create-story/sprint-status-update.md`,
        content: '# Sprint status update\n\nResult: skipped (no sprint-status.yaml).\n',
      },
    ],
    statePatch({
      stepsCompleted: { append: [s05] },
      currentNodeId: { set: 'end-99' },
      artifacts: { append: ['artifacts/create-story/sprint-status-update.md'] },
    }),
  ];
  const c08: ScriptedCall[] = [
    ['fs.read', { path: '@pkg/steps/end-99.md' }],
    ['fs.read', { path: '@state/workflow.md' }],
    [
      'fs.write',
      {
        path: `${A}create-story/summary.md`,
        content: `# Summary\n\n- ${storyPath}\n- next: design review\n`,
      },
    ],
  ];
  const c08b: ScriptedCall[] = [
    statePatch({
      stepsCompleted: { append: ['end-99'] },
      variables: { set: { workflowStatus: 'complete' } },
      artifacts: { append: ['artifacts/create-story/summary.md'] },
    }),
  ];
  return [
    toolCallAnswer(c03, 6),
    toolCallAnswer(c04, 8),
    toolCallAnswer(c05, 17),
    toolCallAnswer(c06, 25),
    toolCallAnswer(c07, 31),
    toolCallAnswer(c08, 35),
    toolCallAnswer(c08b, 38),
    textAnswer(
      `Done: the story is at ${storyPath} and the summary at artifacts/create-story/summary.md. Next: a design review.`,
    ),
  ];
}

export const finalArtifacts = [
  'artifacts/create-story/target.md',
  'artifacts/create-story/inputs.md',
  'artifacts/create-story/context.md',
  `artifacts/stories/${storyKey}.md`,
  'artifacts/create-story/sprint-status-update.md',
  'artifacts/create-story/summary.md',
];
