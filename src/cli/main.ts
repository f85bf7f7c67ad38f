#!/usr/bin/env node
import { Command } from 'commander';
import { registerAskCommand } from './commands/ask.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerChatCommand } from './commands/chat.js';
import { registerCompleteCommand } from './commands/complete.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerModelsCommand } from './commands/models.js';
import { exitQuietlyOnClosedOutput } from './exit-on-closed-output.js';
import { readPackageVersion } from './package-version.js';
import { redactOutputStreams } from './redact-output.js';

exitQuietlyOnClosedOutput();
redactOutputStreams();

const program = new Command()
  .name('spine')
  .description('Local-first LLM client and tool-calling agent runtime')
  .version(readPackageVersion(), '-V, --version', 'print the version')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

registerChatCommand(program);
registerAskCommand(program);
registerCompleteCommand(program);
registerAuditCommand(program);
registerModelsCommand(program);
registerDoctorCommand(program);

await program.parseAsync(process.argv);
