import type { ModelRequest, ToolChoice } from '../../core/types.js';
import type { GovernanceConfig } from '../config/spine-config.js';

/**
 * The call as governance allows it (spec 001 §7): `maxTokens` and `temperature` capped, blocked tools taken
 * out (with a `toolChoice` naming one). The request given is never written to.
 */
export function applyGovernance<T extends ModelRequest>(
  request: T,
  governance: GovernanceConfig | undefined,
): T {
  if (!governance) return request;
  const governed: T = { ...request };
  if (governance.maxTokens !== undefined) {
    governed.maxTokens = Math.min(request.maxTokens ?? governance.maxTokens, governance.maxTokens);
  }
  if (governance.maxTemperature !== undefined && request.temperature !== undefined) {
    governed.temperature = Math.min(request.temperature, governance.maxTemperature);
  }
  const blocked = new Set(governance.blockedTools ?? []);
  if (blocked.size > 0 && request.tools) {
    governed.tools = request.tools.filter((tool) => !blocked.has(tool.function.name));
    if (namesBlockedTool(request.toolChoice, blocked) || governed.tools.length === 0)
      delete governed.toolChoice;
    if (governed.tools.length === 0) delete governed.tools;
  }
  return governed;
}

function namesBlockedTool(choice: ToolChoice | undefined, blocked: Set<string>): boolean {
  return typeof choice === 'object' && blocked.has(choice.function.name);
}
