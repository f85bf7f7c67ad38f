import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The CLI is run from source, as a user would run the built one: a real process against the loopback runner.
// tsx is named by file URL so that a run in another folder (one with its own spine.yaml) still finds it.
const mainScript = path.resolve('src/cli/main.ts');
const tsxLoader = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', tsxLoader, mainScript, ...args],
      { cwd: options.cwd ?? process.cwd(), env: { ...cleanEnv(), ...options.env }, timeout: 15_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

/** No endpoint settings leak in from the developer's shell. */
function cleanEnv(): NodeJS.ProcessEnv {
  const {
    SPINE_BASE_URL,
    SPINE_MODEL,
    SPINE_PROVIDER,
    LLM_API_KEY,
    OPENAI_API_KEY,
    DEEPSEEK_API_KEY,
    ...rest
  } = process.env;
  return rest;
}
