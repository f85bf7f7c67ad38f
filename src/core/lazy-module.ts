import { createRequire } from 'node:module';

const requireModule = createRequire(import.meta.url);

/**
 * A dependency loaded on first use instead of at import: `import('spine-llm')` and `spine --help` then cost what
 * they use, not every library Spine may need (undici, Ajv, zod, yaml and the OpenTelemetry API took ~200 ms
 * together). Every one of them ships a CommonJS build, so the first use can load it synchronously.
 * @example
 * const yaml = lazyModule<typeof import('yaml')>('yaml');
 * yaml().parseDocument(text);
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireModule(id) as T;
    return loaded;
  };
}
