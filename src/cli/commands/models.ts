import type { Command } from 'commander';
import { formatTable } from '../format-table.js';
import { addModelOptions, type ModelFlags } from '../model-selection.js';
import { loadModelTargets, type ModelTarget } from '../model-targets.js';
import { reportError } from '../report-error.js';

interface ModelsFlags extends ModelFlags {
  json?: boolean;
}

export function registerModelsCommand(program: Command): void {
  addModelOptions(
    program
      .command('models')
      .description('list the configured model roles (from spine.yaml, or the endpoint flags)')
      .option('--json', 'print the roles as JSON'),
  ).action(async (flags: ModelsFlags) => {
    try {
      const targets = await loadModelTargets(flags, () => {});
      const rows = targets.map(describeTarget);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(rows)}\n`);
        return;
      }
      const file = targets[0]?.file;
      process.stdout.write(`${file ? `models from ${file}` : 'no config file; the endpoint flags give:'}\n`);
      const header = ['ROLE', 'MODEL', 'API', 'PROVIDER', 'TIMEOUT', 'CONTEXT', 'KEY', 'ENDPOINT'];
      const table = rows.map((row) => [
        row.role,
        row.model,
        row.apiType,
        row.provider,
        `${row.timeoutMs / 1000} s`,
        row.contextLength === null ? '-' : String(row.contextLength),
        row.key,
        row.endpoint,
      ]);
      process.stdout.write(`${formatTable(header, table)}\n`);
      // Where each value came from: a flag, an environment variable, a line of the config, or the default.
      for (const row of rows) {
        const given = Object.entries(row.origins).map(([setting, origin]) => `${setting} ${origin}`);
        process.stdout.write(`\n${row.role}: ${given.join(', ')}\n`);
      }
    } catch (error) {
      reportError(error, Boolean(flags.json));
    }
  });
}

/** What `spine models` shows of a role: never the key itself, only whether one is there; and where each came from. */
function describeTarget({ settings, origins }: ModelTarget) {
  const key = settings.apiKey
    ? 'set'
    : settings.apiKeyEnv
      ? `missing (${settings.apiKeyEnv})`
      : settings.preset.apiKeyEnv
        ? `missing (${settings.preset.apiKeyEnv})`
        : 'none';
  return {
    role: settings.role,
    model: settings.modelId,
    apiType: settings.apiType,
    provider: settings.provider,
    endpoint: settings.endpoint,
    timeoutMs: settings.timeoutMs,
    contextLength: settings.contextLength ?? null,
    maxConcurrency: Number.isFinite(settings.maxConcurrency) ? settings.maxConcurrency : null,
    key,
    origins,
  };
}
