import type { AgentToolPolicy } from '../workflow-types.js';

/** The tool policy a run enforces for one agent, and the text the model is shown of it. */
export interface EffectiveToolPolicy {
  fs: { enabled: boolean; maxReadBytes: number; maxWriteBytes: number };
  mcp: { enabled: boolean; allowedServers: string[] };
}

/** Settings defaults (docs/workflows.md §3.2, decision 20). */
export const defaultToolPolicy: EffectiveToolPolicy = {
  fs: { enabled: true, maxReadBytes: 524_288, maxWriteBytes: 2_097_152 },
  mcp: { enabled: false, allowedServers: [] },
};

/**
 * `merge(system, agent)`: an agent can only tighten. Enabled only if both sides allow it, byte limits the
 * smaller of the defined values, allowed servers the intersection (one side's list when only it has one).
 */
export function mergeToolPolicy(
  system: EffectiveToolPolicy,
  agent: AgentToolPolicy | undefined,
): EffectiveToolPolicy {
  const smaller = (base: number, other: number | undefined) =>
    other === undefined ? base : Math.min(base, other);
  const agentServers = agent?.mcp?.allowedServers;
  return {
    fs: {
      enabled: system.fs.enabled && (agent?.fs?.enabled ?? true),
      maxReadBytes: smaller(system.fs.maxReadBytes, agent?.fs?.maxReadBytes),
      maxWriteBytes: smaller(system.fs.maxWriteBytes, agent?.fs?.maxWriteBytes),
    },
    mcp: {
      enabled: system.mcp.enabled && (agent?.mcp?.enabled ?? true),
      allowedServers:
        agentServers === undefined
          ? system.mcp.allowedServers
          : system.mcp.allowedServers.filter((server) => agentServers.includes(server)),
    },
  };
}

/** The ToolPolicy system message. */
export function describeToolPolicy(policy: EffectiveToolPolicy): string {
  const fs = policy.fs.enabled
    ? `- fs: enabled (maxReadBytes=${policy.fs.maxReadBytes}, maxWriteBytes=${policy.fs.maxWriteBytes})`
    : '- fs: disabled';
  const mcp = policy.mcp.enabled
    ? `- mcp: enabled (allowedServers=${policy.mcp.allowedServers.join(', ') || 'none'})`
    : '- mcp: disabled';
  return [
    'Tool policy:',
    fs,
    mcp,
    '- Edit existing files with fs.apply_patch; write only under @project or @state (@pkg is read-only).',
  ].join('\n');
}
