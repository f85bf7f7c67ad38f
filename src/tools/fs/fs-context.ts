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
  writeRules: FsWriteRules;
}

/**
 * What a host adds to the write tools for files that carry meaning to it (a workflow run's state document,
 * its artifacts folder). Paths are the normalized mount paths the model sees (`@state/workflow.md`).
 */
export interface FsWriteRules {
  /**
   * The check for the next whole text of a file, when that file is guarded: it throws a tool error to refuse
   * (the file is then untouched) and may return fields to add to the write's result.
   */
  guardFor?(
    display: string,
  ): ((current: string, next: string) => Record<string, unknown> | undefined) | undefined;
  /**
   * Called after `fs.write` created a new file. If it throws, the new file is removed again and the write
   * fails with its error: the file and what the host records about it never disagree.
   */
  afterCreate?(display: string): Promise<void>;
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
