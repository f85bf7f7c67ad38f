import type { ToolResult } from '../../core/types.js';
import type { JsonSchema, ToolContext } from '../define-tool.js';
import type { FsLimits } from './fs-limits.js';
import type { MountTable } from './mount-table.js';

/** What every fs tool shares: the mounts, the limits and the policy knobs. */
export interface FsContext {
  mounts: MountTable;
  limits: FsLimits;
  /** Reads of files with other hard links (nlink > 1); refused unless the caller opts in. */
  allowHardLinkReads: boolean;
  /** Real paths no tool may write (the audit log). */
  protectedPaths: ReadonlySet<string>;
  /** Real paths of folders inside which no tool may write (a run's saved tool results). */
  protectedFolders: readonly string[];
}

/** What a write adds to its audit entry beside the result. */
export interface FsAuditFacts {
  path?: string;
  sha256Before?: string | null;
  sha256After?: string;
}

export interface FsOperationOutcome {
  result: ToolResult;
  audit?: FsAuditFacts;
}

/** One fs tool before it is wrapped with error mapping and the audit log. */
export interface FsOperation {
  name: string;
  description: string;
  parameters: JsonSchema;
  writes: boolean;
  run(args: Record<string, unknown>, context: ToolContext): Promise<FsOperationOutcome>;
}
