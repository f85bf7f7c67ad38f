import type { Command } from 'commander';
import { diagnoseEndpoint, type EndpointDiagnosis } from '../../llm/probe/diagnose-endpoint.js';
import { discoverSkills } from '../../tools/skills/discover-skills.js';
import { sandboxVerdict } from '../../tools/skills/script-sandbox.js';
import { formatTable } from '../format-table.js';
import { addModelOptions, type ModelFlags } from '../model-selection.js';
import { loadModelTargets, type ModelTarget } from '../model-targets.js';
import { reportError } from '../report-error.js';
import { collect, resolveSkillRoots } from '../skill-roots.js';

interface DoctorFlags extends ModelFlags {
  json?: boolean;
  skills?: string[];
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
      .option('--skills <dir>', 'also check a skills folder; repeatable', collect)
      .option('--json', 'print the diagnoses as JSON'),
  ).action(async (flags: DoctorFlags) => {
    try {
      const targets = await loadModelTargets(flags, () => {});
      const diagnoses = await Promise.all(
        targets.map((target) => diagnose(target, Boolean(flags.probeTools))),
      );
      const skills = await inspectSkills(flags);
      if (flags.json) process.stdout.write(`${JSON.stringify(diagnoses)}\n`);
      else {
        process.stdout.write(`${renderDiagnoses(diagnoses, Boolean(flags.probeTools))}\n`);
        if (skills !== undefined) process.stdout.write(skills.text);
      }
      if (diagnoses.some((diagnosis) => diagnosis.verdict !== 'ok') || skills?.problems) process.exitCode = 1;
    } catch (error) {
      reportError(error, Boolean(flags.json));
    }
  });
}

/** Skills folders (`--skills`, `skills:`): each problem with its file, and whether scripts get a sandbox. */
async function inspectSkills(flags: DoctorFlags): Promise<{ text: string; problems: boolean } | undefined> {
  const roots = await resolveSkillRoots(flags);
  if (roots.length === 0) return undefined;
  const catalog = await discoverSkills(roots);
  const sandbox = sandboxVerdict();
  const lines = [
    `\nskills: ${catalog.skills.length} found in ${roots.length} folder${roots.length === 1 ? '' : 's'}`,
    ...catalog.problems.map((problem) => `  problem: ${problem.file}: ${problem.reason}`),
    sandbox.kind === 'bubblewrap'
      ? '  scripts run inside bubblewrap'
      : `  scripts run WITHOUT a sandbox: ${sandbox.reason}`,
  ];
  return { text: `${lines.join('\n')}\n`, problems: catalog.problems.length > 0 };
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
