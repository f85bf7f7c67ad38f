import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { RunPackage } from '../../src/workflow/run/run-package.js';
import type { AgentDefinition, WorkflowGraph } from '../../src/workflow/workflow-types.js';
import { finishChunk, textStream, toolCallChunk } from '../support/chat-wire.js';
import type { ScriptedResponse } from '../support/fake-runner.js';

export const referencePackage = resolve('test/data/workflows/create-story-micro');
export const digestPackage = resolve('test/data/workflows/notes-digest');

/** A single-workflow package folder read as a run needs it (the package loader has its own tests). */
export function readFolderPackage(folder: string): RunPackage {
  const read = (path: string) => readFileSync(join(folder, path), 'utf8');
  const graph = JSON.parse(read('workflow.graph.json')) as WorkflowGraph;
  const agents = (JSON.parse(read('agents.json')) as { agents: AgentDefinition[] }).agents;
  const stepFiles = new Map<string, { inputs?: string[]; outputs?: string[] }>();
  for (const node of graph.nodes) {
    const text = read(node.file);
    const frontmatter = parseYaml(text.split('---')[1] ?? '') as { inputs?: string[]; outputs?: string[] };
    stepFiles.set(node.id, frontmatter);
  }
  const manifest = JSON.parse(read('bmad.json')) as { name: string };
  return {
    source: folder,
    root: folder,
    agents,
    workflow: {
      id: manifest.name,
      workflowPath: 'workflow.md',
      template: read('workflow.md'),
      graphPath: 'workflow.graph.json',
      graph,
      stepFiles,
    },
  };
}

/** A project as the reference run finds it: the planning documents, no sprint status, an empty story folder. */
export function makeReferenceProject(): string {
  const project = mkdtempSync(join(tmpdir(), 'spine-wf-project-'));
  const files: Record<string, string> = {
    'artifacts/epics.md':
      '# Epics\n\n## Epic 1: Accounts\n### Story 1.2: User authentication\nUsers sign in with email and password.\n',
    'artifacts/PRD.md': '# PRD\n\nSign-in is required before any project is shown.\n',
    'artifacts/architecture.md':
      '# Architecture\n\nSessions are kept server-side; passwords hashed with argon2.\n',
    'artifacts/ux.md': '# UX\n\nOne sign-in form: email, password, a "forgot password" link.\n',
    'project-context.md': '# Project context\n\nA small web app for planning.\n',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  mkdirSync(join(project, 'artifacts/create-story'), { recursive: true });
  return project;
}

/** A copy of a package folder a test may change. */
export function copyPackage(folder: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'spine-wf-package-'));
  cpSync(folder, copy, { recursive: true });
  return copy;
}

export type ScriptedCall = [name: string, args: Record<string, unknown>];

/** One streamed answer with these tool calls (wire names: dots become underscores), ids `tcN` in order. */
export function toolCallAnswer(
  calls: ScriptedCall[],
  firstId: number,
  idOf: (index: number) => string = (index) => `tc${String(firstId + index).padStart(2, '0')}`,
): ScriptedResponse {
  return {
    sse: [
      ...calls.map(([name, args], index) =>
        toolCallChunk(index, {
          id: idOf(index),
          name: name.replace('.', '_'),
          arguments: JSON.stringify(args),
        }),
      ),
      finishChunk('tool_calls'),
    ],
  };
}

export function textAnswer(text: string): ScriptedResponse {
  return { sse: textStream([text]) };
}

export const updatedAt = '2025-12-25T00:00:00Z';

/** A flat `updateFrontmatter` patch of the state, as the reference run writes them. */
export function statePatch(update: Record<string, unknown>): ScriptedCall {
  return [
    'fs.apply_patch',
    {
      path: '@state/workflow.md',
      operation: 'updateFrontmatter',
      update: { ...update, updatedAt: { set: updatedAt } },
    },
  ];
}
