import { readFile } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SpineError } from '../../core/spine-error.js';
import type { AgentDefinition, WorkflowGraph } from '../workflow-types.js';
import type { PackageOpener, RunPackage } from './run-package.js';

// PLACEHOLDER until the package loader lands: folder packages only, no validation.
export const openRunPackage: PackageOpener = async (source, workflowId) => {
  const root = resolve(source);
  const read = (path: string) => readFile(join(root, path), 'utf8');
  const manifest = JSON.parse(await read('bmad.json')) as {
    name: string;
    entry: { workflow: string; graph: string; agents: string };
    workflows?: Array<{ id: string; workflow: string; graph: string }>;
  };
  const listed = manifest.workflows ?? [];
  const selected =
    listed.length === 0
      ? { id: manifest.name, workflow: manifest.entry.workflow, graph: manifest.entry.graph }
      : listed.find((workflow) => workflow.id === workflowId);
  if (selected === undefined)
    throw new SpineError({ code: 'CONFIG_INVALID', message: `no workflow ${workflowId}` });
  const graph = JSON.parse(await read(selected.graph)) as WorkflowGraph;
  const agents = (JSON.parse(await read(manifest.entry.agents)) as { agents: AgentDefinition[] }).agents;
  const stepFiles = new Map<string, { inputs?: string[]; outputs?: string[] }>();
  for (const node of graph.nodes) {
    const text = await read(posix.normalize(node.file));
    stepFiles.set(node.id, parseYaml(text.split('---')[1] ?? '') ?? {});
  }
  const pkg: RunPackage = {
    source: root,
    root,
    agents,
    workflow: {
      id: selected.id,
      workflowPath: selected.workflow,
      template: await read(selected.workflow),
      graphPath: selected.graph,
      graph,
      stepFiles,
    },
  };
  return pkg;
};
