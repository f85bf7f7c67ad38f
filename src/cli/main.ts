#!/usr/bin/env node
import { Command } from 'commander';
import { exitQuietlyOnClosedOutput } from './exit-on-closed-output.js';
import { readPackageVersion } from './package-version.js';
import { redactOutputStreams } from './redact-output.js';

exitQuietlyOnClosedOutput();
redactOutputStreams();

type Register = (program: Command) => void;

// Each command's module is imported only when that command runs (all of them for `--help`): `spine complete`
// then loads the client alone, not the engine, the tools and the chat loop.
const commands: Record<string, () => Promise<Register>> = {
  chat: async () => (await import('./commands/chat.js')).registerChatCommand,
  ask: async () => (await import('./commands/ask.js')).registerAskCommand,
  complete: async () => (await import('./commands/complete.js')).registerCompleteCommand,
  audit: async () => (await import('./commands/audit.js')).registerAuditCommand,
  models: async () => (await import('./commands/models.js')).registerModelsCommand,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctorCommand,
  'mcp-server': async () => (await import('./commands/mcp-server.js')).registerMcpServerCommand,
  skills: async () => (await import('./commands/skills.js')).registerSkillsCommand,
  validate: async () => (await import('./commands/validate.js')).registerValidateCommand,
  run: async () => (await import('./commands/run.js')).registerRunCommand,
  resume: async () => (await import('./commands/resume.js')).registerResumeCommand,
  runs: async () => (await import('./commands/runs.js')).registerRunsCommand,
};

const program = new Command()
  .name('spine')
  .description('Local-first LLM client and tool-calling agent runtime')
  .version(readPackageVersion(), '-V, --version', 'print the version')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

const named = process.argv[2];
const wanted = named !== undefined && named in commands ? [named] : Object.keys(commands);
for (const register of await Promise.all(wanted.map((name) => commands[name]!()))) register(program);

await program.parseAsync(process.argv);
