import type { EngineEvent } from '../../src/engine/engine-events.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolHost, type ToolHost } from '../../src/tools/tool-host.js';

/** A promise with its resolve handle, for tests that hold a tool or a model call open. */
export function createGate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A host with `math.add`, a tool that always fails, and whatever else a test adds. */
export function createTestTools(extra: Parameters<typeof createToolHost>[0] = []): ToolHost {
  return createToolHost([
    defineTool<{ a: number; b: number }>({
      name: 'math.add',
      description: 'Adds',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      execute: ({ a, b }) => a + b,
    }),
    defineTool({
      name: 'always_fails',
      description: 'Fails',
      parameters: { type: 'object' },
      execute: () => ({ ok: false, error: { code: 'ENOENT', message: 'no such file' } }),
    }),
    ...extra,
  ]);
}

/** Collects events; `types()` lists their types in order. */
export function createEventLog(): {
  events: EngineEvent[];
  listener: (event: EngineEvent) => void;
  types: () => string[];
} {
  const events: EngineEvent[] = [];
  return { events, listener: (event) => events.push(event), types: () => events.map((event) => event.type) };
}
