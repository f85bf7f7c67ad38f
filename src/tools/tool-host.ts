import { type Clock, systemClock } from '../core/deps.js';
import { SpineError } from '../core/spine-error.js';
import type { ToolResult, ToolSpec } from '../core/types.js';
import type { AuditLog } from './audit-log.js';
import type { ToolDefinition, ToolLogger } from './define-tool.js';
import { matchToolAllowlist } from './match-tool-allowlist.js';
import { parseToolArguments } from './parse-tool-arguments.js';
import { runToolWithTimeout } from './run-tool-with-timeout.js';
import { toolFailure } from './to-tool-result.js';
import { loadToolEntries, type ToolEntry } from './tool-entries.js';
import { assignWireToolNames, type WireToolNames } from './wire-tool-names.js';

/** A provider of tools discovered at run time (skills, MCP servers). */
export interface ToolSource {
  tools(): ToolDefinition<never>[] | Promise<ToolDefinition<never>[]>;
}

export type ToolHostSource = ToolDefinition<never> | ToolDefinition<never>[] | ToolSource;

export interface ToolHostOptions {
  /** Applies to tools without their own `timeoutMs` (default 60 s; 0 disables). */
  defaultTimeoutMs?: number;
  logger?: ToolLogger;
  clock?: Clock;
  /**
   * One line per call of every source (fs, module, skill, MCP), refusals included: source, tool, arguments
   * (redacted), outcome, duration, and what the tool adds (the fs tools: path and hashes).
   */
  audit?: AuditLog;
}

/** One call to run: `name` may be the wire name the model used or the real name. */
export interface ToolCallRequest {
  id: string;
  name: string;
  /** Parsed arguments, or the raw JSON string. */
  arguments: unknown;
}

export interface ToolExecutionContext {
  runId: string;
  projectRoot: string;
  signal?: AbortSignal;
  logger?: ToolLogger;
  /** The agent's allowlist: a call to a tool it was not shown is an unknown tool. */
  allow?: string[];
}

export interface ToolVisibility {
  allow?: string[];
}

/** The registry the engine runs tools through: visible specs, validation, dispatch, ToolResults. */
export interface ToolHost {
  /** Resolves once every asynchronous source has listed its tools (rejects if one failed). */
  ready(): Promise<void>;
  /** Lists every source's tools again (an MCP server's tool list changed). */
  reload(): Promise<void>;
  /** Real names, in registration order. */
  readonly toolNames: string[];
  /** The real name behind a wire name (or a real name itself); undefined when unknown. */
  resolveName(name: string): string | undefined;
  /** The wire name a real tool name is sent as. */
  wireName(realName: string): string | undefined;
  getVisibleTools(context?: ToolVisibility): ToolSpec[];
  execute(call: ToolCallRequest, context: ToolExecutionContext): Promise<ToolResult>;
}

const silentLogger: ToolLogger = { debug() {}, info() {}, warn() {} };

interface Registry {
  entries: Map<string, ToolEntry>;
  names: WireToolNames;
}

/**
 * A ToolHost over tool definitions, arrays of them, and tool sources.
 * @example
 * const tools = createToolHost([readTool, fsTools({ mounts }), await mcpTools(servers)]);
 * const result = await tools.execute({ id: 'call_1', name: 'fs_read', arguments: { path: 'a.md' } }, context);
 */
export function createToolHost(sources: ToolHostSource[], options: ToolHostOptions = {}): ToolHost {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 60_000;
  const clock = options.clock ?? systemClock;
  let registry = buildRegistry([]);
  const load = (): Promise<void> | undefined => {
    const loaded = loadToolEntries(sources, defaultTimeoutMs);
    if (!(loaded instanceof Promise)) {
      registry = buildRegistry(loaded);
      return undefined;
    }
    return loaded.then((entries) => {
      registry = buildRegistry(entries);
    });
  };
  const initial = load();
  let readiness: Promise<void> = initial ?? Promise.resolve();
  // Keep an early failure from being an unhandled rejection; it is reported again by ready().
  readiness.catch(() => undefined);

  const resolveName = (name: string): string | undefined => {
    const real = registry.names.toReal.get(name);
    if (real !== undefined) return real;
    return registry.entries.has(name) ? name : undefined;
  };

  return {
    ready: () => readiness,
    reload: async () => {
      readiness = load() ?? Promise.resolve();
      return readiness;
    },
    get toolNames() {
      return [...registry.entries.keys()];
    },
    resolveName,
    wireName: (realName) => registry.names.toWire.get(realName),
    getVisibleTools: (context = {}) => {
      const allowed = matchToolAllowlist(context.allow);
      return [...registry.entries.values()].filter((entry) => allowed(entry.name)).map((entry) => entry.spec);
    },
    execute: async (call, context) => {
      if (options.audit === undefined) return executeCall(call, context);
      const started = clock.now();
      const fields: Record<string, unknown> = {};
      const result = await executeCall(call, context, (extra) => Object.assign(fields, extra));
      const entry = registry.entries.get(resolveName(call.name) ?? '');
      await options.audit
        .append({
          time: new Date(started).toISOString(),
          runId: context.runId,
          toolCallId: call.id,
          source: entry?.definition.source ?? 'tool',
          tool: entry?.name ?? call.name,
          arguments: options.audit.redact(call.arguments),
          ...describeAuditOutcome(result),
          ...fields,
          durationMs: clock.now() - started,
        })
        .catch((error: unknown) =>
          (context.logger ?? options.logger ?? silentLogger).warn('audit log append failed', {
            error: (error as Error).message,
          }),
        );
      return result;
    },
  };

  async function executeCall(
    call: ToolCallRequest,
    context: ToolExecutionContext,
    auditFields?: (fields: Record<string, unknown>) => void,
  ): Promise<ToolResult> {
    const allowed = matchToolAllowlist(context.allow);
    const realName = resolveName(call.name);
    const entry = realName === undefined ? undefined : registry.entries.get(realName);
    if (entry === undefined || !allowed(entry.name)) return unknownTool(call.name, registry, allowed);
    const parsed = parseToolArguments(call.arguments);
    if (!parsed.ok) return parsed.failure;
    const checked = entry.check(parsed.value);
    if (!checked.ok) {
      const summary = checked.errors
        .map((error) => `${error.path || '(arguments)'}: ${error.message}`)
        .join('; ');
      return toolFailure('E_SCHEMA_VALIDATION', `invalid arguments for ${entry.wireName}: ${summary}`, {
        errors: checked.errors,
      });
    }
    const logger = context.logger ?? options.logger ?? silentLogger;
    return runToolWithTimeout({
      toolName: entry.name,
      execute: (toolContext) => entry.definition.execute(checked.value as never, toolContext),
      context: {
        runId: context.runId,
        toolCallId: call.id,
        projectRoot: context.projectRoot,
        logger,
        ...(auditFields !== undefined ? { auditFields } : {}),
      },
      signal: context.signal,
      timeoutMs: entry.timeoutMs,
      clock,
    });
  }
}

/** A ToolResult as the audit log words its outcome. */
function describeAuditOutcome(result: ToolResult) {
  if (result.ok) return { outcome: 'ok' as const };
  const { code, message } = result.error;
  const outcome =
    code === 'E_TIMEOUT'
      ? 'timeout'
      : code === 'E_ABORTED' || code === 'ENGINE_ABORTED'
        ? 'cancelled'
        : 'error';
  const abandoned = (result.error.details as { abandoned?: unknown } | undefined)?.abandoned === true;
  return { outcome, errorCode: code, errorMessage: message, ...(abandoned ? { abandoned } : {}) } as const;
}

function buildRegistry(entries: ToolEntry[]): Registry {
  const names = assignWireToolNames(entries.map((entry) => entry.name));
  const byName = new Map<string, ToolEntry>();
  for (const entry of entries) {
    if (byName.has(entry.name)) {
      throw new SpineError({
        code: 'CONFIG_INVALID',
        message: `tool "${entry.name}" is defined more than once`,
      });
    }
    const wireName = names.toWire.get(entry.name) ?? entry.name;
    byName.set(entry.name, {
      ...entry,
      wireName,
      spec: { ...entry.spec, function: { ...entry.spec.function, name: wireName } },
    });
  }
  return { entries: byName, names };
}

function unknownTool(name: string, registry: Registry, allowed: (name: string) => boolean): ToolResult {
  const known = [...registry.entries.values()]
    .filter((entry) => allowed(entry.name))
    .map((entry) => entry.wireName);
  return toolFailure(
    'E_UNKNOWN_TOOL',
    `unknown tool "${name}"; known tools: ${known.join(', ') || '(none)'}`,
    {
      knownTools: known,
    },
  );
}
