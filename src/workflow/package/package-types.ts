import type { AgentDefinition, WorkflowGraph } from '../workflow-types.js';

/** `bmad.json`, as the schema admits it. */
export interface PackageManifest {
  schemaVersion: string;
  name: string;
  version: string;
  description?: string;
  author?: string;
  createdAt?: string;
  entry: { workflow: string; graph: string; agents: string; assetsDir?: string };
  workflows?: Array<{
    id: string;
    workflow: string;
    graph: string;
    displayName?: string;
    description?: string;
    tags?: string[];
  }>;
  runtime?: { minRuntimeVersion?: string; requiresNetwork?: boolean };
  integrity?: { sha256?: string };
}

/** One step file: its frontmatter and body. */
export interface StepFile {
  /** Relative to the package root. */
  file: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

/** One workflow of a package, loaded and checked. */
export interface WorkflowDefinition {
  id: string;
  /** The workflow document, relative to the package root: the template of a run's state. */
  workflowFile: string;
  /** Its whole text. */
  template: string;
  frontmatter: Record<string, unknown>;
  graphFile: string;
  graph: WorkflowGraph;
  steps: ReadonlyMap<string, StepFile>;
}

/** A package opened from a folder, or from an archive extracted into the cache. */
export interface WorkflowPackage {
  /** What was opened: a folder or an archive, absolute. */
  source: string;
  /** The package folder, mounted read-only as `@pkg`. */
  root: string;
  /** The archive's sha256; absent for a folder. */
  sha256?: string;
  manifest: PackageManifest;
  agents: AgentDefinition[];
  workflows: WorkflowDefinition[];
}

/** One thing wrong with a package: a stable code, where (file and JSON pointer or line), and why. */
export interface PackageProblem {
  code: string;
  /** Relative to the package root. */
  file: string;
  pointer?: string;
  line?: number;
  message: string;
  /** Warnings are reported; only errors keep a package from running. */
  severity: 'error' | 'warning';
}
