// After `tsc`: the public entry `dist/index.js` and the CLI `dist/cli/main.js` become bundles with the
// dependencies left external, so that `import('spine-llm')` and `spine …` link a few modules instead of ~150–250
// (ESM linking was most of their cold start: import ~135 ms → ~75 ms, `spine --help` ~190 ms → ~125 ms on a
// slow 2-core machine; the openai package takes ~100 ms to import). The CLI's lazily loaded commands become
// chunks of their own beside it. The per-file modules stay for `spine-llm/testing`.
import { build } from 'esbuild';

/**
 * fs.search's helper threads load `search-worker.js` from beside the pool's own module: the pool stays a file
 * of its own, loaded by a bundle when a search first needs it, so that the path still holds.
 */
function searchHelpersStayApart(poolPath) {
  return {
    name: 'search-helpers-stay-apart',
    setup(esbuild) {
      esbuild.onResolve({ filter: /\/search-worker-pool\.js$/ }, () => ({ path: poolPath, external: true }));
    },
  };
}

const shared = {
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};

await build({
  ...shared,
  entryPoints: ['dist/index.js'],
  outfile: 'dist/index.js',
  plugins: [searchHelpersStayApart('./tools/fs/search-worker-pool.js')],
});

await build({
  ...shared,
  entryPoints: ['dist/cli/main.js'],
  outdir: 'dist/cli',
  splitting: true,
  // Chunks stay in dist/cli, beside the modules they came from: paths taken from `import.meta.url` (the package's
  // version, the search helpers) still hold.
  chunkNames: 'chunk-[hash]',
  plugins: [searchHelpersStayApart('../tools/fs/search-worker-pool.js')],
});
