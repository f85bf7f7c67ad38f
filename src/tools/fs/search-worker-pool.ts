import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BatchAnswer } from './search-file-batch.js';
import type { BatchRequest } from './search-worker.js';

interface Helper {
  worker: Worker;
  ready: boolean;
  pending: Map<number, { resolve(answer: BatchAnswer): void; reject(error: Error): void }>;
}

/**
 * The helper threads `fs.search` hands batches of files to, started on first use and kept for the next search.
 * An idle helper does not keep the process alive; a helper that fails is dropped and its batches are refused,
 * so that the caller searches them itself.
 */
export class SearchWorkerPool {
  /** Batches the helpers have answered so far (for tests and benchmarks: were the helpers used?). */
  batchesAnswered = 0;
  private readonly helpers: Helper[] = [];
  private nextId = 1;
  private readonly readyWaiters: Array<() => void> = [];
  /** Helpers started so far, failed ones included: a helper that failed is not started again. */
  private started = 0;

  /** `startThread` is replaced only by tests (a thread that cannot be started). */
  constructor(private readonly startThread: () => Worker = startHelperThread) {}

  /** Starts helpers until `size` have been started. */
  growTo(size: number): void {
    for (; this.started < size; this.started += 1) this.start();
  }

  /** Helpers that have loaded and can take a batch now. */
  readyCount(): number {
    let count = 0;
    for (const helper of this.helpers) if (helper.ready) count += 1;
    return count;
  }

  /** Resolves once every helper has loaded or failed (tests and benchmarks wait for it). */
  async whenReady(): Promise<void> {
    if (this.helpers.every((helper) => helper.ready)) return;
    // Waiting keeps the process alive, as waiting for any other thread's answer does.
    for (const helper of this.helpers) if (!helper.ready) helper.worker.ref();
    await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
    return this.whenReady();
  }

  /** Hands a batch to the ready helper with the fewest batches in hand; undefined when none is ready. */
  run(request: Omit<BatchRequest, 'id'>): Promise<BatchAnswer> | undefined {
    let chosen: Helper | undefined;
    for (const helper of this.helpers) {
      if (helper.ready && (chosen === undefined || helper.pending.size < chosen.pending.size))
        chosen = helper;
    }
    if (chosen === undefined) return undefined;
    const helper = chosen;
    const id = this.nextId++;
    const answer = new Promise<BatchAnswer>((resolve, reject) => helper.pending.set(id, { resolve, reject }));
    if (helper.pending.size === 1) helper.worker.ref();
    helper.worker.postMessage({ ...request, id } satisfies BatchRequest);
    return answer;
  }

  /**
   * Stops every helper; the batches they had in hand are refused once their threads are gone (the caller then
   * searches them itself, and no helper still reads through its folders). The next use starts new helpers.
   */
  async close(): Promise<void> {
    const helpers = this.helpers.splice(0);
    this.started = 0;
    for (const helper of helpers) helper.ready = false;
    await Promise.all(helpers.map((helper) => helper.worker.terminate()));
    for (const helper of helpers) this.refuse(helper, new Error('search helpers closed'));
    this.notifyReady();
  }

  private refuse(helper: Helper, error: Error): void {
    helper.ready = false;
    for (const waiter of helper.pending.values()) waiter.reject(error);
    helper.pending.clear();
  }

  private start(): void {
    let worker: Worker;
    try {
      worker = this.startThread();
    } catch {
      // No thread to be had (a sandboxed runtime, a resource limit): the searches run on the calling thread.
      return;
    }
    const helper: Helper = { worker, ready: false, pending: new Map() };
    this.helpers.push(helper);
    worker.on('message', (message: { ready?: true; id?: number; answer?: BatchAnswer; error?: string }) => {
      if (message.ready) {
        helper.ready = true;
        if (helper.pending.size === 0) worker.unref();
        this.notifyReady();
        return;
      }
      const waiter = helper.pending.get(message.id!);
      if (waiter === undefined) return;
      helper.pending.delete(message.id!);
      if (helper.pending.size === 0) worker.unref();
      if (message.error !== undefined) waiter.reject(new Error(message.error));
      else {
        this.batchesAnswered += 1;
        waiter.resolve(message.answer!);
      }
    });
    const drop = (error: Error) => {
      const index = this.helpers.indexOf(helper);
      if (index !== -1) this.helpers.splice(index, 1);
      this.refuse(helper, error);
      this.notifyReady();
    };
    worker.on('error', drop);
    worker.on('exit', (code) => drop(new Error(`search helper exited with code ${code}`)));
    // After the listeners: adding a 'message' listener refs a worker again.
    worker.unref();
  }

  private notifyReady(): void {
    for (const waiter of this.readyWaiters.splice(0)) waiter();
  }
}

/**
 * A helper runs the module beside this one. Run from the TypeScript sources (the tests do), the helper loads
 * it through tsx's `tsImport`: Node 20 does not pass a parent's module loader on to a worker thread.
 */
function startHelperThread(): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    // The parent's flags, less one that a module file refuses (`node --input-type=module -e …` is common).
    const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
    return new Worker(new URL('./search-worker.js', import.meta.url), { execArgv });
  }
  // The ESM build of `tsx/esm/api` (its `import` export), found from the package's own folder.
  const manifest = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = new URL('dist/esm/api/index.mjs', manifest).href;
  const module = new URL('./search-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(module)}, ${JSON.stringify(module)}))`;
  return new Worker(code, { eval: true });
}

let shared: SearchWorkerPool | undefined;

/** The process's pool, grown to `size` helpers if it has started fewer. */
export function searchWorkerPool(size: number): SearchWorkerPool {
  shared ??= new SearchWorkerPool();
  shared.growTo(size);
  return shared;
}
