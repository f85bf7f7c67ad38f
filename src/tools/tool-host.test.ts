import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SpineError } from '../core/spine-error.js';
import { defineTool } from './define-tool.js';
import { createToolHost } from './tool-host.js';

const context = { runId: 'run-1', projectRoot: '/project' };

const addTool = defineTool<{ a: number; b: number }>({
  name: 'math.add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: ({ a, b }) => a + b,
});

describe('createToolHost', () => {
  it('offers wire-safe names and runs a call by wire or real name', async () => {
    const host = createToolHost([addTool]);
    const [spec] = host.getVisibleTools();
    expect(spec?.function.name).toBe('math_add');
    expect(spec?.function.parameters).toMatchObject({ required: ['a', 'b'] });
    expect(host.resolveName('math_add')).toBe('math.add');
    const byWire = await host.execute({ id: 'c1', name: 'math_add', arguments: { a: 2, b: 3 } }, context);
    expect(byWire).toEqual({ ok: true, data: 5 });
    const byReal = await host.execute({ id: 'c2', name: 'math.add', arguments: '{"a":1,"b":1}' }, context);
    expect(byReal).toEqual({ ok: true, data: 2 });
  });

  it('rejects invalid arguments with E_SCHEMA_VALIDATION naming every failing path', async () => {
    const host = createToolHost([addTool]);
    const result = await host.execute({ id: 'c1', name: 'math_add', arguments: { a: 'two', c: 1 } }, context);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('E_SCHEMA_VALIDATION');
    const paths = (result.error.details as { errors: Array<{ path: string }> }).errors.map(
      (error) => error.path,
    );
    expect(paths).toEqual(expect.arrayContaining(['/a', '/b', '/c']));
    expect(result.error.message).toContain('/a');
  });

  it('rejects arguments that are not JSON or not an object', async () => {
    const host = createToolHost([addTool]);
    const broken = await host.execute({ id: 'c1', name: 'math_add', arguments: '{"a":' }, context);
    expect(broken).toMatchObject({ ok: false, error: { code: 'E_SCHEMA_VALIDATION' } });
    const array = await host.execute({ id: 'c1', name: 'math_add', arguments: [1, 2] }, context);
    expect(array).toMatchObject({ ok: false, error: { code: 'E_SCHEMA_VALIDATION' } });
  });

  it('answers an unknown tool with E_UNKNOWN_TOOL listing the known ones', async () => {
    const host = createToolHost([addTool]);
    const result = await host.execute({ id: 'c1', name: 'math_mul', arguments: {} }, context);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'E_UNKNOWN_TOOL', details: { knownTools: ['math_add'] } },
    });
    if (!result.ok) expect(result.error.message).toContain('math_add');
  });

  it('maps thrown errors: tool-coded SpineErrors keep their code, the rest are E_INTERNAL without a stack', async () => {
    const host = createToolHost([
      defineTool({
        name: 'coded',
        description: '',
        parameters: { type: 'object' },
        execute: () => {
          throw new SpineError({
            code: 'E_SANDBOX_VIOLATION',
            message: 'outside the mounts',
            details: { path: '/etc' },
          });
        },
      }),
      defineTool({
        name: 'broken',
        description: '',
        parameters: { type: 'object' },
        execute: async () => {
          throw new TypeError('cannot read x of undefined');
        },
      }),
    ]);
    const coded = await host.execute({ id: 'c1', name: 'coded', arguments: {} }, context);
    expect(coded).toEqual({
      ok: false,
      error: { code: 'E_SANDBOX_VIOLATION', message: 'outside the mounts', details: { path: '/etc' } },
    });
    const broken = await host.execute({ id: 'c2', name: 'broken', arguments: {} }, context);
    expect(broken).toEqual({
      ok: false,
      error: { code: 'E_INTERNAL', message: 'cannot read x of undefined' },
    });
  });

  it('times a tool out with E_TIMEOUT and aborts its signal', async () => {
    let toolSignal: AbortSignal | undefined;
    const host = createToolHost([
      defineTool({
        name: 'slow',
        description: '',
        parameters: { type: 'object' },
        timeoutMs: 20,
        execute: (_args, toolContext) => {
          toolSignal = toolContext.signal;
          return new Promise(() => undefined);
        },
      }),
    ]);
    const result = await host.execute({ id: 'c1', name: 'slow', arguments: {} }, context);
    expect(result).toMatchObject({ ok: false, error: { code: 'E_TIMEOUT' } });
    expect(toolSignal?.aborted).toBe(true);
  });

  it('abandons a tool that ignores a cancel, well before its own timeout', async () => {
    const host = createToolHost([
      defineTool({
        name: 'stubborn',
        description: '',
        parameters: { type: 'object' },
        timeoutMs: 60_000,
        execute: () => new Promise(() => undefined),
      }),
    ]);
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 10);
    const result = await host.execute(
      { id: 'c1', name: 'stubborn', arguments: {} },
      { ...context, signal: cancel.signal },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'E_ABORTED', details: { abandoned: true } } });
  });

  it('lets a cancelled tool that stops by itself return its own result', async () => {
    const host = createToolHost([
      defineTool({
        name: 'polite',
        description: '',
        parameters: { type: 'object' },
        execute: (_args, toolContext) =>
          new Promise((resolve) =>
            toolContext.signal.addEventListener('abort', () => resolve({ stoppedCleanly: true })),
          ),
      }),
    ]);
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 10);
    const result = await host.execute(
      { id: 'c1', name: 'polite', arguments: {} },
      { ...context, signal: cancel.signal },
    );
    expect(result).toEqual({ ok: true, data: { stoppedCleanly: true } });
  });

  it('passes flat ToolResults through and wraps plain values', async () => {
    const host = createToolHost([
      defineTool({
        name: 'fs.read',
        description: '',
        parameters: { type: 'object' },
        execute: () => ({ ok: true, path: 'a.md', bytes: 3, content: 'abc' }),
      }),
      defineTool({
        name: 'nothing',
        description: '',
        parameters: { type: 'object' },
        execute: () => undefined,
      }),
      defineTool({
        name: 'object',
        description: '',
        parameters: { type: 'object' },
        execute: () => ({ rows: 2 }),
      }),
    ]);
    expect(await host.execute({ id: 'c1', name: 'fs_read', arguments: {} }, context)).toEqual({
      ok: true,
      path: 'a.md',
      bytes: 3,
      content: 'abc',
    });
    expect(await host.execute({ id: 'c2', name: 'nothing', arguments: {} }, context)).toEqual({ ok: true });
    expect(await host.execute({ id: 'c3', name: 'object', arguments: {} }, context)).toEqual({
      ok: true,
      data: { rows: 2 },
    });
  });

  it('hands the tool its context and validated arguments (zod schema, defaults applied)', async () => {
    const seen: unknown[] = [];
    const host = createToolHost([
      defineTool<{ query: string; limit: number }>({
        name: 'search',
        description: 'Searches',
        parameters: z.object({ query: z.string().min(1), limit: z.number().int().default(10) }),
        execute: (args, toolContext) => {
          seen.push(args, toolContext.runId, toolContext.toolCallId, toolContext.projectRoot);
          return 'found';
        },
      }),
    ]);
    const [spec] = host.getVisibleTools();
    expect(spec?.function.parameters).toMatchObject({ type: 'object', required: ['query'] });
    expect(spec?.function.parameters).not.toHaveProperty('$schema');
    expect(await host.execute({ id: 'c9', name: 'search', arguments: { query: 'x' } }, context)).toEqual({
      ok: true,
      data: 'found',
    });
    expect(seen).toEqual([{ query: 'x', limit: 10 }, 'run-1', 'c9', '/project']);
    const invalid = await host.execute({ id: 'c10', name: 'search', arguments: { query: '' } }, context);
    expect(invalid).toMatchObject({
      ok: false,
      error: { code: 'E_SCHEMA_VALIDATION', details: { errors: [{ path: '/query' }] } },
    });
  });

  it('filters visible tools by an allowlist with globs and refuses calls outside it', async () => {
    const tool = (name: string) =>
      defineTool({ name, description: '', parameters: { type: 'object' }, execute: () => name });
    const host = createToolHost([[tool('fs.read'), tool('fs.write')], tool('shell')]);
    const names = host.getVisibleTools({ allow: ['fs.*'] }).map((spec) => spec.function.name);
    expect(names).toEqual(['fs_read', 'fs_write']);
    const refused = await host.execute(
      { id: 'c1', name: 'shell', arguments: {} },
      { ...context, allow: ['fs.*'] },
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'E_UNKNOWN_TOOL' } });
    expect(host.toolNames).toEqual(['fs.read', 'fs.write', 'shell']);
  });

  it('loads asynchronous tool sources before ready() resolves', async () => {
    const source = { tools: async () => [addTool] };
    const host = createToolHost([source]);
    await host.ready();
    expect(host.toolNames).toEqual(['math.add']);
    expect(await host.execute({ id: 'c1', name: 'math_add', arguments: { a: 1, b: 2 } }, context)).toEqual({
      ok: true,
      data: 3,
    });
  });

  it('refuses a tool defined twice and a schema that does not compile', () => {
    expect(() => createToolHost([addTool, addTool])).toThrow(/defined more than once/);
    const bad = defineTool({
      name: 'bad',
      description: '',
      parameters: { type: 'nonsense' },
      execute: () => 1,
    });
    expect(() => createToolHost([bad])).toThrow(SpineError);
  });
});
