#!/usr/bin/env node
import { Command } from 'commander';
import { registerCompleteCommand } from './commands/complete.js';

const program = new Command()
  .name('spine')
  .description('Local-first LLM client and tool-calling agent runtime')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

registerCompleteCommand(program);

await program.parseAsync(process.argv);
