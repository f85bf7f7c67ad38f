import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { createToolHost } from './tool-host.js';

// The type assertions are checked by `tsc` (npm run lint); a wrong inference fails the build, not only this run.
describe('defineTool', () => {
  it('infers execute arguments from a zod schema, and the host runs it with them', async () => {
    const weather = defineTool({
      name: 'weather',
      description: 'the weather in a city',
      parameters: z.object({ city: z.string(), days: z.number().int().optional() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        return { city: args.city.toUpperCase(), days: args.days ?? 1 };
      },
    });
    const host = createToolHost([weather]);
    const result = await host.execute(
      { id: 'c1', name: 'weather', arguments: { city: 'oslo' } },
      { runId: 'r', projectRoot: '.', signal: new AbortController().signal },
    );
    expect(result).toEqual({ ok: true, data: { city: 'OSLO', days: 1 } });
  });

  it('takes the argument type as a parameter for a JSON Schema', () => {
    const echo = defineTool<{ text: string }>({
      name: 'echo',
      description: 'says it back',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string }>();
        return args.text;
      },
    });
    expect(echo.name).toBe('echo');
  });
});
