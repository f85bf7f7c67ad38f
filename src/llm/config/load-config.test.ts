import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpineError } from '../../core/spine-error.js';
import { findConfigFile, loadConfig } from './load-config.js';

const validConfig = 'models:\n  router:\n    id: m\n    endpoint: http://127.0.0.1:8080/v1\n';

describe('findConfigFile and loadConfig', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'spine-config-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('finds spine.yaml before config/models.yaml, and nothing in an empty folder', async () => {
    expect(await findConfigFile(folder)).toBeUndefined();
    await mkdir(path.join(folder, 'config'));
    await writeFile(path.join(folder, 'config', 'models.yaml'), validConfig);
    expect(await findConfigFile(folder)).toBe(path.join(folder, 'config', 'models.yaml'));
    await writeFile(path.join(folder, 'spine.yaml'), validConfig);
    expect(await findConfigFile(folder)).toBe(path.join(folder, 'spine.yaml'));
  });

  it('does not take a folder named spine.yaml for the file, nor search parent folders', async () => {
    await mkdir(path.join(folder, 'spine.yaml'));
    await writeFile(path.join(folder, 'config.yaml'), validConfig);
    const child = path.join(folder, 'child');
    await mkdir(child);
    await writeFile(path.join(folder, 'spine.yml'), validConfig);
    expect(await findConfigFile(folder)).toBe(path.join(folder, 'spine.yml'));
    expect(await findConfigFile(child)).toBeUndefined();
  });

  it('loads a file, naming it in errors as it was given', async () => {
    const file = path.join(folder, 'spine.yaml');
    await writeFile(file, validConfig);
    const config = await loadConfig(file);
    expect(config.models.router?.id).toBe('m');
    expect(config.source?.file).toBe(file);
    await writeFile(file, `${validConfig}    api_type: grpc\n`);
    const error = await loadConfig(file).catch((caught: unknown) => caught);
    expect(SpineError.is(error) && error.message).toBe(
      `${file}:5: models.router.api_type: must be one of chat_completions, responses, ollama`,
    );
  });

  it('reports a missing file as CONFIG_INVALID', async () => {
    const missing = path.join(folder, 'nope.yaml');
    const error = await loadConfig(missing).catch((caught: unknown) => caught);
    expect(SpineError.is(error) && error.code).toBe('CONFIG_INVALID');
    expect(SpineError.is(error) && error.message).toBe(`${missing}: cannot read the config file (ENOENT)`);
  });
});

it('a config file of many megabytes is refused without being read whole', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'spine-big-config-'));
  try {
    const file = path.join(folder, 'spine.yaml');
    await writeFile(file, `# ${'x'.repeat(8 * 1024 * 1024)}\n`);
    await expect(loadConfig(file)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/8388611 bytes, over the limit/),
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
