import { stateFrontmatterSchema } from '../state/validate-state-frontmatter.js';
import type { AgentDefinition, WorkflowGraph } from '../workflow-types.js';
import { PackageReader } from './package-reader.js';
import { agentsSchema, graphSchema, manifestSchema, stepFrontmatterSchema } from './package-schemas.js';
import type { PackageManifest, PackageProblem, StepFile, WorkflowDefinition } from './package-types.js';

export interface PackageInspection {
  problems: PackageProblem[];
  manifest?: PackageManifest;
  agents: AgentDefinition[];
  workflows: WorkflowDefinition[];
}

/**
 * Reads and checks a package folder against the v1.1 schemas and the integrity rules (docs/workflows.md §1):
 * the entry node exists, edges name existing nodes, node ids are unique, every node's file is inside the
 * package and exists, each step file's `nodeId` and `type` are its node's, node agents exist. Every problem is
 * collected; nothing is thrown. Workflows with problems are still returned as far as they could be read.
 */
export async function inspectPackage(root: string): Promise<PackageInspection> {
  const reader = new PackageReader(root);
  const manifest = (await reader.json('bmad.json', manifestSchema)) as PackageManifest | undefined;
  const result: PackageInspection = { problems: reader.problems, agents: [], workflows: [] };
  if (manifest === undefined || typeof manifest.entry !== 'object' || manifest.entry === null) return result;
  result.manifest = manifest;
  const agentsFile = reader.inside(manifest.entry.agents, 'bmad.json', '/entry/agents');
  if (agentsFile !== undefined) {
    const agents = await reader.json(agentsFile, agentsSchema);
    if (Array.isArray(agents?.agents)) result.agents = agents.agents as AgentDefinition[];
  }
  for (const [index, listed] of workflowList(manifest, reader).entries()) {
    const definition = await inspectWorkflow(reader, listed, index, result.agents);
    if (definition !== undefined) result.workflows.push(definition);
  }
  return result;
}

interface ListedWorkflow {
  id: string;
  workflow: string;
  graph: string;
  pointer: string;
}

/** `workflows[]` when it has entries (ids unique), else the entry workflow, named after the package. */
function workflowList(manifest: PackageManifest, reader: PackageReader): ListedWorkflow[] {
  const listed = Array.isArray(manifest.workflows) ? manifest.workflows : [];
  if (listed.length === 0)
    return [
      {
        id: manifest.name,
        workflow: manifest.entry.workflow,
        graph: manifest.entry.graph,
        pointer: '/entry',
      },
    ];
  const seen = new Set<string>();
  return listed.flatMap((workflow, index) => {
    if (seen.has(workflow.id)) {
      reader.problem(
        'PKG_DUPLICATE_WORKFLOW_ID',
        'bmad.json',
        `workflow id "${workflow.id}" is listed twice`,
        {
          pointer: `/workflows/${index}/id`,
        },
      );
      return [];
    }
    seen.add(workflow.id);
    return [{ ...workflow, pointer: `/workflows/${index}` }];
  });
}

async function inspectWorkflow(
  reader: PackageReader,
  listed: ListedWorkflow,
  _index: number,
  agents: readonly AgentDefinition[],
): Promise<WorkflowDefinition | undefined> {
  const workflowFile = reader.inside(listed.workflow, 'bmad.json', `${listed.pointer}/workflow`);
  const graphFile = reader.inside(listed.graph, 'bmad.json', `${listed.pointer}/graph`);
  if (workflowFile === undefined || graphFile === undefined) return undefined;
  const template = await reader.text(workflowFile, 'bmad.json', `${listed.pointer}/workflow`);
  const document = template === undefined ? undefined : reader.frontmatter(template, workflowFile);
  if (document !== undefined) {
    // A template's empty `updatedAt` is a warning (decision 25): a run writes a real time at creation.
    reader.check(
      document.frontmatter,
      stateFrontmatterSchema,
      workflowFile,
      (pointer) => pointer === '/updatedAt' && document.frontmatter.updatedAt === '',
    );
    if (document.frontmatter.updatedAt === '')
      reader.warning(
        'PKG_EMPTY_UPDATED_AT',
        workflowFile,
        'updatedAt is empty; a run sets it when it starts',
        {
          pointer: '/updatedAt',
        },
      );
  }
  const graph = (await reader.json(graphFile, graphSchema, 'bmad.json')) as WorkflowGraph | undefined;
  if (graph === undefined || !Array.isArray(graph.nodes) || !Array.isArray(graph.edges)) return undefined;
  const steps = await inspectGraph(reader, graph, graphFile, agents);
  if (template === undefined || document === undefined) return undefined;
  return {
    id: listed.id,
    workflowFile,
    template,
    frontmatter: document.frontmatter,
    graphFile,
    graph,
    steps,
  };
}

async function inspectGraph(
  reader: PackageReader,
  graph: WorkflowGraph,
  graphFile: string,
  agents: readonly AgentDefinition[],
): Promise<Map<string, StepFile>> {
  const ids = new Set<string>();
  graph.nodes.forEach((node, index) => {
    if (ids.has(node.id))
      reader.problem('PKG_DUPLICATE_NODE_ID', graphFile, `node id "${node.id}" is used twice`, {
        pointer: `/nodes/${index}/id`,
      });
    ids.add(node.id);
  });
  if (typeof graph.entryNodeId === 'string' && !ids.has(graph.entryNodeId))
    reader.problem('PKG_ENTRY_NODE_MISSING', graphFile, `entryNodeId "${graph.entryNodeId}" is not a node`, {
      pointer: '/entryNodeId',
    });
  graph.edges.forEach((edge, index) => {
    for (const end of ['from', 'to'] as const) {
      if (typeof edge[end] === 'string' && !ids.has(edge[end]))
        reader.problem('PKG_EDGE_UNKNOWN_NODE', graphFile, `edge ${end} "${edge[end]}" is not a node`, {
          pointer: `/edges/${index}/${end}`,
        });
    }
  });
  const agentIds = new Set(agents.map((agent) => agent.id));
  const steps = new Map<string, StepFile>();
  for (const [index, node] of graph.nodes.entries()) {
    if (node.agentId !== undefined && agents.length > 0 && !agentIds.has(node.agentId))
      reader.problem(
        'PKG_UNKNOWN_AGENT',
        graphFile,
        `node ${node.id} names agent "${node.agentId}", which agents.json does not define`,
        {
          pointer: `/nodes/${index}/agentId`,
        },
      );
    if (node.type === 'decision' && graph.edges.filter((edge) => edge.from === node.id).length < 2)
      reader.warning(
        'PKG_DECISION_WITHOUT_BRANCHES',
        graphFile,
        `decision node ${node.id} has fewer than two outgoing edges`,
        {
          pointer: `/nodes/${index}`,
        },
      );
    if (typeof node.file !== 'string') continue;
    const file = reader.inside(node.file, graphFile, `/nodes/${index}/file`);
    if (file === undefined) continue;
    const text = await reader.text(file, graphFile, `/nodes/${index}/file`);
    const step = text === undefined ? undefined : reader.frontmatter(text, file);
    if (step === undefined) continue;
    reader.check(step.frontmatter, stepFrontmatterSchema, file);
    if (typeof step.frontmatter.nodeId === 'string' && step.frontmatter.nodeId !== node.id)
      reader.problem(
        'PKG_STEP_NODE_ID_MISMATCH',
        file,
        `nodeId "${step.frontmatter.nodeId}" is not its node's id "${node.id}"`,
        {
          pointer: '/nodeId',
        },
      );
    if (typeof step.frontmatter.type === 'string' && step.frontmatter.type !== node.type)
      reader.problem(
        'PKG_STEP_TYPE_MISMATCH',
        file,
        `type "${step.frontmatter.type}" is not its node's type "${node.type}"`,
        {
          pointer: '/type',
        },
      );
    steps.set(node.id, { file, ...step });
  }
  return steps;
}
