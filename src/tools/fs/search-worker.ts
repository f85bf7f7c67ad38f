// A helper thread of `fs.search`: reads and matches batches of files that the calling thread's walk chose,
// through the walk's open folder descriptors (they are process-wide), and answers each batch in turn.
import { parentPort } from 'node:worker_threads';
import { createLineMatcher, type LineMatcher, type MatcherOptions } from './line-matcher.js';
import { type FileBatch, type FileRules, searchFileBatch } from './search-file-batch.js';

export interface BatchRequest {
  id: number;
  batch: FileBatch;
  matcher: MatcherOptions;
  rules: FileRules;
  /** Set to 1 by the caller when the search stops: the files not yet read are left. */
  stop: Int32Array;
}

const port = parentPort;
if (port !== null) {
  let cached: { key: string; matcher: LineMatcher } | undefined;
  const matcherFor = (options: MatcherOptions): LineMatcher => {
    const key = JSON.stringify(options);
    if (cached?.key !== key) cached = { key, matcher: createLineMatcher(options) };
    return cached.matcher;
  };
  port.on('message', (request: BatchRequest) => {
    try {
      const stopped = () => Atomics.load(request.stop, 0) !== 0;
      const answer = searchFileBatch(request.batch, matcherFor(request.matcher), request.rules, stopped);
      port.postMessage({ id: request.id, answer });
    } catch (error) {
      port.postMessage({ id: request.id, error: String(error) });
    }
  });
  port.postMessage({ ready: true });
}
