import { SpineError } from '../../core/spine-error.js';
import type { ChatMessage } from '../../core/types.js';
import { allowedNextOf } from '../state/guard-state-write.js';
import { findNode, isWorkflowComplete, type WorkflowState } from '../state/workflow-state.js';
import type { AgentDefinition, WorkflowGraph } from '../workflow-types.js';
import { conversationBaseRules, runBaseRules } from './base-rules.js';
import { renderNodeBrief } from './node-brief.js';
import { renderPersona } from './persona.js';
import { type RunIntent, renderRunDirective } from './run-directive.js';
import { describeToolPolicy, type EffectiveToolPolicy, mergeToolPolicy } from './tool-policy.js';
import { renderUserInput } from './user-input.js';

export type PromptMode = 'run' | 'agent' | 'chat';

/** What a composer knows of the run: fixed for its life. */
export interface PromptComposerOptions {
  agents: readonly AgentDefinition[];
  /** The run's default persona; a node's own `agentId` wins while the run stands on it. */
  activeAgentId: string;
  /** The settings' tool policy, before an agent tightens it. */
  systemPolicy: EffectiveToolPolicy;
  workflow: {
    id: string;
    /** The graph file, relative to the package root. */
    graphPath: string;
    graph: WorkflowGraph;
    /** Inputs and outputs per node as the step files declare them (used when the graph node has none). */
    stepFiles?: ReadonlyMap<string, { inputs?: string[]; outputs?: string[] }>;
  };
  autopilot: boolean;
}

export interface ComposeRequest {
  mode: PromptMode;
  state: WorkflowState;
  intent: RunIntent;
  /** The user's text for this call, rendered as USER_INPUT last. */
  userInput?: string;
}

/**
 * Builds the messages that lead every model call of a workflow run (docs/workflows.md §3.1): base rules, the
 * effective tool policy, the persona, then RUN_DIRECTIVE and NODE_BRIEF, then USER_INPUT. They are composed
 * fresh from the state on every call and never stored in the run's history (decision 18), so they always tell
 * the truth about where the run stands, after a crash too.
 */
export class PromptComposer {
  readonly #options: PromptComposerOptions;

  constructor(options: PromptComposerOptions) {
    this.#options = options;
    this.agent(options.activeAgentId);
  }

  compose(request: ComposeRequest): ChatMessage[] {
    const { mode, state } = request;
    const agentId = this.effectiveAgentId(state);
    const messages: ChatMessage[] = [
      { role: 'system', content: mode === 'run' ? runBaseRules() : conversationBaseRules() },
      { role: 'system', content: describeToolPolicy(this.policyFor(agentId)) },
    ];
    if (mode !== 'chat') messages.push({ role: 'system', content: renderPersona(this.agent(agentId)) });
    const complete = isWorkflowComplete(state, this.#options.workflow.graph);
    if (mode === 'run') messages.push(...this.#runShells(request, agentId, complete));
    if (request.userInput !== undefined)
      messages.push({ role: 'user', content: this.userInput(request.userInput, mode, state) });
    return messages;
  }

  /** The USER_INPUT text for the user's words: `forNodeId` only while a run's step is active. */
  userInput(text: string, mode: PromptMode, state: WorkflowState): string {
    const active = mode === 'run' && !isWorkflowComplete(state, this.#options.workflow.graph);
    return renderUserInput(text, active ? state.currentNodeId : undefined);
  }

  /** `node.agentId ?? activeAgentId`, per node. */
  effectiveAgentId(state: WorkflowState): string {
    return (
      findNode(this.#options.workflow.graph, state.currentNodeId)?.agentId ?? this.#options.activeAgentId
    );
  }

  /** The policy the tool host enforces for this agent: the same object the model is told about. */
  policyFor(agentId: string): EffectiveToolPolicy {
    return mergeToolPolicy(this.#options.systemPolicy, this.agent(agentId).tools);
  }

  agent(agentId: string): AgentDefinition {
    const agent = this.#options.agents.find((candidate) => candidate.id === agentId);
    if (agent === undefined) {
      throw new SpineError({
        code: 'AGENT_NOT_FOUND',
        message: `agent "${agentId}" is not defined in agents.json (agents: ${this.#options.agents
          .map((known) => known.id)
          .join(', ')})`,
        details: { agentId },
      });
    }
    return agent;
  }

  #runShells(request: ComposeRequest, agentId: string, complete: boolean): ChatMessage[] {
    const { workflow, autopilot } = this.#options;
    const { state } = request;
    const directive = renderRunDirective({
      intent: request.intent,
      workflowId: workflow.id,
      graphPath: workflow.graphPath,
      ...(complete ? {} : { currentNodeId: state.currentNodeId }),
      effectiveAgentId: agentId,
      autopilot,
    });
    const messages: ChatMessage[] = [{ role: 'user', content: directive }];
    const node = findNode(workflow.graph, state.currentNodeId);
    if (complete || node === undefined) return messages;
    const declared = workflow.stepFiles?.get(node.id);
    const brief = renderNodeBrief({
      node,
      outputs: node.outputs ?? declared?.outputs ?? [],
      inputs: node.inputs ?? declared?.inputs ?? [],
      allowedNext: allowedNextOf(workflow.graph, node.id),
      finishing: node.type === 'end',
    });
    messages.push({ role: 'user', content: brief });
    return messages;
  }
}
