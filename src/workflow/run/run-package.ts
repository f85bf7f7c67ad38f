import type { AgentDefinition, WorkflowGraph } from '../workflow-types.js';

/** What a run needs of its package: one selected workflow, the agents, and where the files are. */
export interface RunPackage {
  /** The folder or archive the package was opened from, absolute. */
  source: string;
  /** The package folder (an archive's extraction), mounted read-only as `@pkg`. */
  root: string;
  /** An archive's sha256. */
  sha256?: string;
  agents: AgentDefinition[];
  workflow: {
    id: string;
    /** The workflow document, relative to the package root: the template of a run's state. */
    workflowPath: string;
    /** Its text. */
    template: string;
    graphPath: string;
    graph: WorkflowGraph;
    /** Inputs and outputs per node, as the step files' frontmatter declares them. */
    stepFiles: ReadonlyMap<string, { inputs?: string[]; outputs?: string[] }>;
  };
}

/** Opens a package and selects a workflow of it (the package loader, or a test's own). */
export type PackageOpener = (source: string, workflowId?: string) => Promise<RunPackage>;
