import type { Command } from 'commander';
import { diagnoseEndpoint, type EndpointDiagnosis } from '../../llm/probe/diagnose-endpoint.js';
import { formatTable } from '../format-table.js';
import { addModelOptions, type ModelFlags } from '../model-selection.js';
import { loadModelTargets, type ModelTarget } from '../model-targets.js';
import { reportError } from '../report-error.js';

interface DoctorFlags extends ModelFlags {
  json?: boolean;
  probeTools?: boolean;
}

/** A probe should answer fast or be reported as slow; a role's long generation timeout is not for this. */
const probeTimeoutMs = 10_000;
const toolProbeTimeoutMs = 60_000;

export function registerDoctorCommand(program: Command): void {
  addModelOptions(
    program
      .command('doctor')
      .description('probe each configured endpoint: reachable, model present, and (optionally) tool calls')
      .option('--probe-tools', 'also check that a trivial tool call round-trips (costs two model calls)')
      .option('--json', 'print the diagnoses as JSON'),
  ).action(async (flags: DoctorFlags) => {
    try {
      const targets = await loadModelTargets(flags, () => {});
      const diagnoses = await Promise.all(
        targets.map((target) => diagnose(target, Boolean(flags.probeTools))),
      );
      if (flags.json) process.stdout.write(`${JSON.stringify(diagnoses)}\n`);
      else process.stdout.write(`${renderDiagnoses(diagnoses, Boolean(flags.probeTools))}\n`);
      if (diagnoses.some((diagnosis) => diagnosis.verdict !== 'ok')) process.exitCode = 1;
    } catch (error) {
      reportError(error, Boolean(flags.json));
    }
  });
}

function diagnose({ settings, client }: ModelTarget, probeTools: boolean): Promise<EndpointDiagnosis> {
  return diagnoseEndpoint({
    role: settings.role,
    modelId: settings.modelId,
    endpoint: settings.endpoint,
    baseUrl: settings.baseUrl,
    apiType: settings.apiType,
    preset: settings.preset,
    timeoutMs: probeTools ? toolProbeTimeoutMs : probeTimeoutMs,
    client,
    probeTools,
    ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
    ...(settings.headers !== undefined ? { headers: settings.headers } : {}),
  });
}

function renderDiagnoses(diagnoses: EndpointDiagnosis[], probeTools: boolean): string {
  const mark = (value: boolean | undefined) => (value === undefined ? '-' : value ? 'yes' : 'no');
  const header = ['ROLE', 'MODEL', 'REACHABLE', 'MODEL PRESENT', ...(probeTools ? ['TOOLS'] : []), 'VERDICT'];
  const rows = diagnoses.map((diagnosis) => [
    diagnosis.role,
    diagnosis.modelId,
    mark(diagnosis.reachable),
    mark(diagnosis.modelPresent),
    ...(probeTools ? [mark(diagnosis.toolsRoundTrip)] : []),
    diagnosis.verdict.toUpperCase(),
  ]);
  const details = diagnoses.map((diagnosis) => `${diagnosis.role}: ${diagnosis.detail}`);
  return [formatTable(header, rows), '', ...details].join('\n');
}
