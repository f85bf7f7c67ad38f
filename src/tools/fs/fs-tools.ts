import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Clock } from '../../core/deps.js';
import { systemClock } from '../../core/deps.js';
import { SpineError } from '../../core/spine-error.js';
import { type AuditLog, createAuditLog } from '../audit-log.js';
import type { ToolDefinition } from '../define-tool.js';
import { toThrownToolResult } from '../to-tool-result.js';
import { createFsApplyPatch } from './fs-apply-patch.js';
import type { FsContext, FsOperation, FsOperationOutcome, FsWriteRules } from './fs-context.js';
import { type FsLimits, resolveFsLimits } from './fs-limits.js';
import { createFsList } from './fs-list.js';
import { createFsRead } from './fs-read.js';
import { createFsSearch } from './fs-search.js';
import { createFsWrite } from './fs-write.js';
import { createMountTable, type FsMountsOption } from './mount-table.js';
import { fromOsError } from './os-failure.js';

export interface FsToolsOptions {
  /** `{ project, pkg, state }` folders, or `{ '@project': { root, writable } , … }`. `@pkg` is always read-only. */
  mounts: FsMountsOption;
  limits?: Partial<FsLimits>;
  /** Every call, refusals included, is appended here (a log, or the path of its JSONL file). */
  audit?: AuditLog | { path: string };
  /** Makes `@project` read-only (no `fs.write` / `fs.apply_patch` into it). */
  readOnly?: boolean;
  /**
   * Offer `fs.write` and `fs.apply_patch` (default true). Without them the definitions sent with every request
   * shrink by more than half, which a model with a small context needs.
   */
  writeTools?: boolean;
  /**
   * Reads of files with other hard links (nlink > 1) are refused by default: the other name may lie outside
   * the sandbox. Set this to read them (pnpm stores, `cp -al` trees); writes to them are always refused.
   */
  allowHardLinkReads?: boolean;
  /**
   * Mount paths no tool may name, list or search (`['@project/.spine']`): the agent's own run records, say,
   * which sit inside the project but are not the model's to read or rewrite.
   */
  hide?: string[];
  /**
   * Files the tools may read but never write, beside the audit log (which is always protected): records the
   * host itself keeps in a writable mount, such as a run's `turns.jsonl`. Absolute paths; they need not exist.
   */
  readOnlyFiles?: string[];
  /** Folders whose files the tools may read but never write (a run's `tool-results/`). Absolute paths. */
  readOnlyFolders?: string[];
  /** A host's own rules for some writes: a guarded state file, a follow-up to each created artifact. */
  writeRules?: FsWriteRules;
  clock?: Clock;
}

/**
 * The sandboxed file tools `fs.read`, `fs.search`, `fs.list`, `fs.write`, `fs.apply_patch` over the mounts
 * `@project`, `@pkg` (read-only) and `@state`. Results are the flat ToolResult shapes of spec §6.
 * @example
 * const tools = createToolHost([fsTools({ mounts: { project: '.', state: runFolder }, audit: { path: `${runFolder}/audit.jsonl` } })]);
 */
export function fsTools(options: FsToolsOptions): ToolDefinition[] {
  const mounts = createMountTable(options.mounts, options.readOnly ?? false, options.hide);
  const audit =
    options.audit === undefined
      ? undefined
      : 'append' in options.audit
        ? options.audit
        : createAuditLog(options.audit.path);
  const context: FsContext = {
    mounts,
    limits: resolveFsLimits(options.limits),
    allowHardLinkReads: options.allowHardLinkReads ?? false,
    protectedFolders: (options.readOnlyFolders ?? []).map(realTarget),
    writeRules: options.writeRules ?? {},
    protectedPaths: new Set(
      [...(audit === undefined ? [] : [audit.path]), ...(options.readOnlyFiles ?? [])].map(realTarget),
    ),
  };
  const operations = [createFsRead(context), createFsSearch(context), createFsList(context)];
  if (options.writeTools !== false) operations.push(createFsWrite(context), createFsApplyPatch(context));
  const clock = options.clock ?? systemClock;
  return operations.map((operation) => toToolDefinition(operation, audit, clock));
}

function toToolDefinition(operation: FsOperation, audit: AuditLog | undefined, clock: Clock): ToolDefinition {
  return {
    name: operation.name,
    description: operation.description,
    parameters: operation.parameters,
    source: 'fs',
    execute: async (args, context) => {
      const started = clock.now();
      const outcome = await runOperation(operation, args, context);
      // A ToolHost that keeps the audit log gets the fs fields for its entry (path, hashes).
      if (outcome.audit !== undefined) context.auditFields?.({ ...outcome.audit });
      if (audit !== undefined) {
        const entry = {
          time: new Date(started).toISOString(),
          runId: context.runId,
          toolCallId: context.toolCallId,
          tool: operation.name,
          arguments: audit.redact(args),
          ...describeOutcome(outcome),
          ...outcome.audit,
          durationMs: clock.now() - started,
        };
        await audit.append(entry).catch((error: unknown) => {
          context.logger?.warn('audit log append failed', {
            error: (error as Error).message,
            path: audit.path,
          });
        });
      }
      return outcome.result;
    },
  };
}

async function runOperation(
  operation: FsOperation,
  args: Record<string, unknown>,
  context: Parameters<ToolDefinition['execute']>[1],
): Promise<FsOperationOutcome> {
  try {
    if (typeof args !== 'object' || args === null) {
      throw new SpineError({ code: 'E_SCHEMA_VALIDATION', message: 'arguments must be an object' });
    }
    return await operation.run(args, context);
  } catch (error) {
    const displayPath = typeof args?.path === 'string' ? args.path : undefined;
    return { result: toThrownToolResult(fromOsError(error, displayPath) ?? error) };
  }
}

function describeOutcome(outcome: FsOperationOutcome) {
  if (outcome.result.ok) return { outcome: 'ok' as const };
  const error = outcome.result.error;
  return { outcome: 'error' as const, errorCode: error.code, errorMessage: error.message };
}

/** The real path the audit log will have (its folder may not exist yet). */
function realTarget(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}
