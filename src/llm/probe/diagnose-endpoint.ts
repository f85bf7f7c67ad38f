import type { ModelClient } from '../../core/types.js';
import { isModelListed, type ListModelsTarget, listEndpointModels } from './list-endpoint-models.js';
import { probeToolRoundTrip } from './probe-tool-round-trip.js';

export type Verdict = 'ok' | 'unreachable' | 'auth-failed' | 'model-missing' | 'tools-failed' | 'error';

/** One row of `spine doctor`. */
export interface EndpointDiagnosis {
  role: string;
  modelId: string;
  endpoint: string;
  apiType: string;
  reachable: boolean;
  /** undefined when the runner does not list its models. */
  modelPresent: boolean | undefined;
  /** undefined when tools were not probed (or the earlier checks failed). */
  toolsRoundTrip: boolean | undefined;
  verdict: Verdict;
  detail: string;
}

export interface DiagnoseTarget extends ListModelsTarget {
  role: string;
  modelId: string;
  endpoint: string;
  client: ModelClient;
  probeTools: boolean;
}

/** Reachable → model present → (optionally) a tool call round-trips; the first failure decides the verdict. */
export async function diagnoseEndpoint(target: DiagnoseTarget): Promise<EndpointDiagnosis> {
  const base = {
    role: target.role,
    modelId: target.modelId,
    endpoint: target.endpoint,
    apiType: target.apiType,
  };
  const listing = await listEndpointModels(target);
  if (listing.status === 'unreachable') {
    return fail(base, false, 'unreachable', `cannot connect: ${listing.message}`);
  }
  if (listing.status === 'redirected') {
    return fail(
      base,
      true,
      'error',
      `HTTP ${listing.httpStatus}: the server redirects to ${listing.location}; Spine does not follow redirects (they could carry the key to another origin): set the base URL to where it points`,
    );
  }
  if (listing.status === 'auth-failed') {
    return fail(base, true, 'auth-failed', `HTTP ${listing.httpStatus}: check the API key`);
  }
  if (listing.status === 'error') {
    return fail(base, true, 'error', `HTTP ${listing.httpStatus} listing models: ${listing.message}`);
  }
  if (target.modelId === '') {
    const served = listing.status === 'listed' ? listing.models.slice(0, 10).join(', ') : '';
    return {
      ...base,
      reachable: true,
      modelPresent: undefined,
      toolsRoundTrip: undefined,
      verdict: 'model-missing',
      detail: `no model given (pass --model NAME); served: ${served || '(the server does not list them)'}`,
    };
  }
  const modelPresent =
    listing.status === 'listed' ? isModelListed(listing.models, target.modelId) : undefined;
  if (modelPresent === false) {
    const hint = target.apiType === 'ollama' ? ` (run: ollama pull ${target.modelId})` : '';
    const known = listing.status === 'listed' ? listing.models.slice(0, 5).join(', ') : '';
    return {
      ...base,
      reachable: true,
      modelPresent,
      toolsRoundTrip: undefined,
      verdict: 'model-missing',
      detail: `${target.modelId} is not served${hint}; served: ${known || '(none)'}`,
    };
  }
  const listed = modelPresent ? 'model served' : 'model list not available';
  if (!target.probeTools) {
    return {
      ...base,
      reachable: true,
      modelPresent,
      toolsRoundTrip: undefined,
      verdict: 'ok',
      detail: listed,
    };
  }
  const probe = await probeToolRoundTrip(target.client, { timeoutMs: target.timeoutMs });
  if (probe.status === 'round-trip') {
    const repaired = probe.toolCallRepairs > 0 ? ` (${probe.toolCallRepairs} repair(s) needed)` : '';
    return {
      ...base,
      reachable: true,
      modelPresent,
      toolsRoundTrip: true,
      verdict: 'ok',
      detail: `${listed}; tool call round-trips${repaired}`,
    };
  }
  const why =
    probe.status === 'no-tool-call'
      ? `the model answered in prose instead of calling the tool: ${JSON.stringify(probe.content)}`
      : `${probe.code}: ${probe.message}`;
  return {
    ...base,
    reachable: true,
    modelPresent,
    toolsRoundTrip: false,
    verdict: 'tools-failed',
    detail: why,
  };
}

function fail(
  base: Pick<EndpointDiagnosis, 'role' | 'modelId' | 'endpoint' | 'apiType'>,
  reachable: boolean,
  verdict: Verdict,
  detail: string,
): EndpointDiagnosis {
  return { ...base, reachable, modelPresent: undefined, toolsRoundTrip: undefined, verdict, detail };
}
