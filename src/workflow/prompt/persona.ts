import type { AgentDefinition } from '../workflow-types.js';

/**
 * The Persona system message of an agent (docs/workflows.md §3.2): its own `systemPrompt` when it has one,
 * else its metadata and persona fields rendered as a short character sheet.
 */
export function renderPersona(agent: AgentDefinition): string {
  if (typeof agent.systemPrompt === 'string' && agent.systemPrompt.trim() !== '') return agent.systemPrompt;
  const { metadata, persona } = agent;
  const principles = Array.isArray(persona.principles)
    ? persona.principles.map((principle) => `- ${principle}`).join('\n')
    : persona.principles;
  return [
    `You are ${metadata.name} (${metadata.title}).`,
    `Role: ${persona.role}`,
    `Identity: ${persona.identity}`,
    `Communication style: ${persona.communication_style}`,
    `Principles:\n${principles}`,
    `Stay in character as ${metadata.name} for this whole step.`,
  ].join('\n');
}
