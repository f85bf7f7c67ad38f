import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SpineError } from '../../core/spine-error.js';
import { extractPackageArchive } from './extract-package-archive.js';
import { inspectPackage } from './inspect-package.js';
import type {
  PackageManifest,
  PackageProblem,
  WorkflowDefinition,
  WorkflowPackage,
} from './package-types.js';

export interface OpenPackageOptions {
  /** Where archives are extracted (default: `defaultPackageCache()`). */
  cacheDir?: string;
}

/** What `spine validate` reports: every problem of a package at once. */
export interface PackageReport {
  source: string;
  root?: string;
  sha256?: string;
  manifest?: PackageManifest;
  workflows: Array<{ id: string; nodes: number; edges: number }>;
  problems: PackageProblem[];
}

/** Checks a package (a folder, or a `.bmad` / `.zip` archive) and reports every problem, without throwing for them. */
export async function validatePackage(
  source: string,
  options: OpenPackageOptions = {},
): Promise<PackageReport> {
  const located = await locatePackage(source, options);
  const inspection = await inspectPackage(located.root);
  const report: PackageReport = {
    source: located.source,
    root: located.root,
    workflows: inspection.workflows.map((workflow) => ({
      id: workflow.id,
      nodes: workflow.graph.nodes.length,
      edges: workflow.graph.edges.length,
    })),
    problems: inspection.problems,
  };
  if (located.sha256 !== undefined) report.sha256 = located.sha256;
  if (inspection.manifest !== undefined) report.manifest = inspection.manifest;
  return report;
}

/**
 * Opens a package for running: located (an archive extracted once into the cache), read and checked. A package
 * with any error is refused with `PACKAGE_INVALID`, its problems in `details.problems`: it never starts a run.
 */
export async function openPackage(
  source: string,
  options: OpenPackageOptions = {},
): Promise<WorkflowPackage> {
  const located = await locatePackage(source, options);
  const inspection = await inspectPackage(located.root);
  const errors = inspection.problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0 || inspection.manifest === undefined) {
    const first = errors[0];
    throw new SpineError({
      code: 'PACKAGE_INVALID',
      message: `${source} has ${errors.length} problem${errors.length === 1 ? '' : 's'}${first ? `, first: ${first.file}${first.pointer ? `#${first.pointer}` : ''} ${first.code} ${first.message}` : ''} (spine validate lists them all)`,
      details: { problems: errors },
    });
  }
  const opened: WorkflowPackage = {
    source: located.source,
    root: located.root,
    manifest: inspection.manifest,
    agents: inspection.agents,
    workflows: inspection.workflows,
  };
  if (located.sha256 !== undefined) opened.sha256 = located.sha256;
  return opened;
}

/**
 * The workflow a run uses (docs/workflows.md §1.3): with a `workflows[]` list the id is required and must be
 * one of it; without, the entry workflow, whose id is the package name (and a given id must be that).
 */
export function selectWorkflow(pkg: WorkflowPackage, workflowId?: string): WorkflowDefinition {
  const listed = (pkg.manifest.workflows ?? []).length > 0;
  const ids = pkg.workflows.map((workflow) => workflow.id);
  if (workflowId === undefined) {
    if (listed && pkg.workflows.length > 1)
      throw new SpineError({
        code: 'WORKFLOW_REF_REQUIRED',
        message: `the package has several workflows: choose one with --workflow (${ids.join(', ')})`,
        details: { workflows: ids },
      });
    return pkg.workflows[0]!;
  }
  const found = pkg.workflows.find((workflow) => workflow.id === workflowId);
  if (found === undefined)
    throw new SpineError({
      code: 'WORKFLOW_REF_UNKNOWN',
      message: `the package has no workflow "${workflowId}" (workflows: ${ids.join(', ')})`,
      details: { workflowId, workflows: ids },
    });
  return found;
}

async function locatePackage(
  source: string,
  options: OpenPackageOptions,
): Promise<{ source: string; root: string; sha256?: string }> {
  const absolute = resolve(source);
  const found = await stat(absolute).catch(() => undefined);
  if (found === undefined)
    throw new SpineError({
      code: 'PACKAGE_NOT_FOUND',
      message: `no package at ${source}`,
      details: { source },
    });
  if (found.isDirectory()) return { source: absolute, root: absolute };
  const extracted = await extractPackageArchive(absolute, options);
  return { source: absolute, ...extracted };
}
