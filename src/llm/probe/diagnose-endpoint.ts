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
  const listedPresent =
    listing.status === 'listed' ? isModelListed(listing.models, target.modelId) : undefined;
  // llama-server (and other one-model servers) list their one model and answer to any name.
  const anyName =
    listedPresent === false &&
    target.apiType !== 'ollama' &&
    listing.status === 'listed' &&
    listing.models.length === 1
      ? await answersToAnyName(target)
      : false;
  const modelPresent = anyName ? true : listedPresent;
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
  const served = listing.status === 'listed' ? listing.models[0] : undefined;
  const listed = anyName
    ? `the server serves one model (${served}) under any name, ${target.modelId} included`
    : modelPresent
      ? 'model served'
      : 'model list not available';
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
      : probe.status === 'cut-off'
        ? `the answer was cut at its limit of ${probe.maxTokens} tokens before any tool call (the runner's output cap, such as llama-server's -n, or the slot's context is too small: raise it)`
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

/** One tiny request under the configured name: a server that answers it serves its one model under any name. */
async function answersToAnyName(target: DiagnoseTarget): Promise<boolean> {
  try {
    await target.client.respond({
      messages: [{ role: 'user', content: 'ping' }],
      maxTokens: 1,
      timeoutMs: target.timeoutMs,
    });
    return true;
  } catch {
    return false;
  }
}
