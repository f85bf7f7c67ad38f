import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadToolsModule } from '../../src/cli/load-tools-module.js';

describe('loadToolsModule', () => {
  let folder: string;
  let count = 0;
  const moduleWith = async (source: string, extension = 'mjs') => {
    count += 1;
    const name = `tools-${count}.${extension}`;
    await writeFile(path.join(folder, name), source);
    return name;
  };
  const failure = (file: string) =>
    loadToolsModule(file, folder).then(
      () => undefined,
      (error: { code: string; message: string }) => `${error.code}: ${error.message}`,
    );

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'spine-tools-module-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('returns the default export, resolved against the given folder', async () => {
    const file = await moduleWith(
      'export default [{ name: "echo", description: "Echoes.", parameters: { type: "object" }, execute: (a) => a }];\n',
    );
    const tools = await loadToolsModule(file, folder);
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(await tools[0]?.execute({ x: 1 }, undefined as never)).toEqual({ x: 1 });
  });

  it('loads a CommonJS module too', async () => {
    const file = await moduleWith('module.exports = [{ name: "cjs", execute: () => 1 }];\n', 'cjs');
    expect((await loadToolsModule(file, folder)).map((tool) => tool.name)).toEqual(['cjs']);
  });

  it('names what is wrong with a module', async () => {
    expect(await failure('missing.mjs')).toMatch(
      /^CONFIG_INVALID: --tools-module missing\.mjs: no such file/,
    );
    expect(await failure(await moduleWith('export const tools = [];\n'))).toMatch(
      /default export must be an array of tool definitions, got nothing \(no default export\)$/,
    );
    expect(await failure(await moduleWith('export default [{ name: "x" }];\n'))).toMatch(
      /tool 1 \("x"\) needs an execute function$/,
    );
    expect(await failure(await moduleWith('export default [{ execute() {} }];\n'))).toMatch(
      /tool 1 needs a non-empty name$/,
    );
    expect(await failure(await moduleWith('export default [;\n'))).toMatch(/the module failed to load: /);
  });
});
