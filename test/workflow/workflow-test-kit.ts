import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { finishChunk, textStream, toolCallChunk } from '../support/chat-wire.js';
import type { ScriptedResponse } from '../support/fake-runner.js';

export const referencePackage = resolve('test/data/workflows/create-story-micro');
export const digestPackage = resolve('test/data/workflows/notes-digest');

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
