// After `tsc`: the public entry `dist/index.js` becomes one file with the dependencies left external, so that
// `import('spine-llm')` links one module instead of ~150 (ESM linking was most of its cold start: ~135 ms →
// ~75 ms; the openai package takes ~100 ms). The per-file modules stay for the CLI and `spine-llm/testing`.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/index.js'],
  outfile: 'dist/index.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  plugins: [
    {
      // fs.search's helper threads load `search-worker.js` from beside the pool's own module: the pool stays a
      // file of its own, loaded by the bundle when a search first needs it, so that the path still holds.
      name: 'search-helpers-stay-apart',
      setup(build) {
        build.onResolve({ filter: /\/search-worker-pool\.js$/ }, () => ({
          path: './tools/fs/search-worker-pool.js',
          external: true,
        }));
      },
    },
  ],
});
