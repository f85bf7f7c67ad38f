import { type OpenPackageOptions, openPackage, selectWorkflow } from '../package/open-package.js';
import type { PackageOpener, RunPackage } from './run-package.js';

/** Opens a package (folder or archive), refuses it if it has problems, and selects the workflow a run uses. */
export function packageOpener(options: OpenPackageOptions = {}): PackageOpener {
  return async (source, workflowId) => {
    const pkg = await openPackage(source, options);
    const workflow = selectWorkflow(pkg, workflowId);
    const stepFiles = new Map<string, { inputs?: string[]; outputs?: string[] }>();
    for (const [nodeId, step] of workflow.steps) stepFiles.set(nodeId, step.frontmatter);
    const opened: RunPackage = {
      source: pkg.source,
      root: pkg.root,
      agents: pkg.agents,
      workflow: {
        id: workflow.id,
        workflowPath: workflow.workflowFile,
        template: workflow.template,
        graphPath: workflow.graphFile,
        graph: workflow.graph,
        stepFiles,
      },
    };
    if (pkg.sha256 !== undefined) opened.sha256 = pkg.sha256;
    return opened;
  };
}

/** The default opener: archives extracted into the user's cache. */
export const openRunPackage: PackageOpener = packageOpener();
