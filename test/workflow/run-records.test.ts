import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendConversation, readConversation } from '../../src/workflow/run/conversation-log.js';
import { acquireRunLock, isRunLockLive } from '../../src/workflow/run/run-lock.js';

describe('the run lock', () => {
  it('is refused while held, in this process and by a live other process; a killed holder’s lock is taken over', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'spine-lock-'));
    const lock = acquireRunLock(runDir, 'r1');
    expect(() => acquireRunLock(runDir, 'r1')).toThrow(expect.objectContaining({ code: 'RUN_LOCKED' }));
    lock.release();
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);

    // Another process takes the lock and sleeps; while it lives the run is locked, once killed it is not.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('node:fs').writeFileSync(${JSON.stringify(join(runDir, 'run.lock'))}, JSON.stringify({pid: process.pid, host: require('node:os').hostname(), since: 'now'})); console.log('held'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    expect(isRunLockLive(runDir)).toBe(true);
    expect(() => acquireRunLock(runDir, 'r1')).toThrow(
      expect.objectContaining({ code: 'RUN_LOCKED', details: expect.objectContaining({ pid: holder.pid }) }),
    );
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    expect(isRunLockLive(runDir)).toBe(false);
    const taken = acquireRunLock(runDir, 'r1');
    expect(JSON.parse(readFileSync(join(runDir, 'run.lock'), 'utf8')).pid).toBe(process.pid);
    taken.release();
  });

  it('a torn lock file (killed mid-write) is taken over', () => {
    const runDir = mkdtempSync(join(tmpdir(), 'spine-lock-'));
    writeFileSync(join(runDir, 'run.lock'), '{"pid": 12');
    acquireRunLock(runDir, 'r2').release();
  });
});

describe('the conversation log', () => {
  it('reads up to a torn line and drops an unanswered tool call, then rewrites itself clean', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'spine-log-'));
    await appendConversation(runDir, [
      { role: 'user', content: 'USER_INPUT\nhi' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'fs_read', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'a', content: '{"ok":true}' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'b', type: 'function', function: { name: 'fs_read', arguments: '{}' } }],
      },
    ]);
    writeFileSync(
      join(runDir, 'conversation.jsonl'),
      `${readFileSync(join(runDir, 'conversation.jsonl'), 'utf8')}{"role":"to`,
    );
    const messages = await readConversation(runDir);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    await appendConversation(runDir, [{ role: 'user', content: 'more' }]);
    expect((await readConversation(runDir)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
    ]);
  });

  it('a missing log is an empty conversation', async () => {
    expect(await readConversation(mkdtempSync(join(tmpdir(), 'spine-log-')))).toEqual([]);
  });
});
