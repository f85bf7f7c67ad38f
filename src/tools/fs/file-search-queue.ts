import { closeSync } from 'node:fs';
import type { LineMatcher, MatcherOptions } from './line-matcher.js';
import type { FolderHandle } from './read-through-folder.js';
import {
  type BatchAnswer,
  type FileBatch,
  type FileRules,
  matchAt,
  type SearchMatch,
  searchFile,
  searchFileBatch,
} from './search-file-batch.js';
import type { SearchWorkerPool } from './search-worker-pool.js';

/** A folder of the walk; its descriptor is closed once the walk has left it and no batch still names it. */
export interface QueuedFolder {
  handle: FolderHandle;
  users: number;
  left: boolean;
}

export interface FileSearchSettings {
  matcher: LineMatcher;
  matcherOptions: MatcherOptions;
  rules: FileRules;
  /** The mount name the reported paths start with (`@project`). */
  mountName: string;
  onMatch(match: SearchMatch): boolean;
  shouldStop(): boolean;
}

interface Batch extends FileBatch {
  size: number;
  /** Each file's path below the mount root: the reported path is made only for a file with hits. */
  relatives: string[];
  folders: QueuedFolder[];
  answer?: BatchAnswer;
  answered?: Promise<unknown>;
}

/**
 * Files per batch handed to a helper: the first batches are small, so that a small search is spread over the
 * helpers too; they double up to a size that makes a message's cost small beside the reads.
 */
const firstBatchFiles = 16;
const largestBatchFiles = 256;
/** Batches in hand per ready helper, so that a helper never waits for the walk. */
const batchesPerHelper = 4;

/**
 * The files of a search in walk order, searched on helper threads when they are ready (on the calling thread
 * until then), their hits delivered in the same order as a search on one thread would find them: the result
 * never depends on which thread was faster. Few batches are in flight at once, so memory stays bounded.
 */
export class FileSearchQueue {
  filesScanned = 0;
  /** True once the search stops: a limit, the time budget, cancellation, or a file left unsearched. */
  stopped = false;
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private readonly inFlight: Batch[] = [];
  private batch: Batch = emptyBatch();
  private batchFiles = firstBatchFiles;
  private readonly poll: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly settings: FileSearchSettings,
    private readonly pool: SearchWorkerPool | undefined,
  ) {
    // While this thread waits on helpers, it still sees the time budget and cancellation run out.
    if (pool !== undefined) {
      this.poll = setInterval(() => {
        if (settings.shouldStop()) this.stop();
      }, 5);
      this.poll.unref();
    }
  }

  stop(): void {
    this.stopped = true;
    Atomics.store(this.stopFlag, 0, 1);
  }

  /** Queues a file; may first wait for the oldest batch in flight, and delivers the hits that are ready. */
  async add(folder: QueuedFolder, name: string, relative: string): Promise<void> {
    const helpers = this.pool?.readyCount() ?? 0;
    if (helpers === 0 && this.inFlight.length === 0 && this.batch.size === 0) {
      this.searchHere(folder.handle, name, relative);
      return;
    }
    const { batch } = this;
    const group = batch.groups.at(-1);
    if (group?.folder === folder.handle) group.names.push(name);
    else {
      batch.groups.push({ folder: folder.handle, names: [name] });
      batch.folders.push(folder);
      folder.users += 1;
    }
    batch.size += 1;
    batch.relatives.push(relative);
    if (batch.size < (helpers > 0 ? this.batchFiles : 1)) return;
    if (helpers > 0) this.batchFiles = Math.min(largestBatchFiles, this.batchFiles * 2);
    this.send();
    this.deliverAnswered();
    while (this.inFlight.length > Math.max(1, helpers * batchesPerHelper) && !this.stopped) {
      await this.inFlight[0]!.answered;
      this.deliverAnswered();
    }
  }

  /** The walk has left the folder. */
  leave(folder: QueuedFolder): void {
    folder.left = true;
    closeIfUnused(folder);
  }

  /** Searches what is queued and waits for every batch in flight (helpers may be reading through its folders). */
  async finish(): Promise<void> {
    try {
      if (this.stopped) release(this.batch);
      else if (this.batch.size > 0) this.send();
      for (const batch of this.inFlight) await batch.answered;
      this.deliverAnswered();
    } finally {
      clearInterval(this.poll);
    }
  }

  private send(): void {
    const batch = this.batch;
    this.batch = emptyBatch();
    this.inFlight.push(batch);
    const { settings } = this;
    const request = {
      batch: { groups: batch.groups },
      matcher: settings.matcherOptions,
      rules: settings.rules,
    };
    const answer = this.pool?.run({ ...request, stop: this.stopFlag });
    if (answer === undefined) {
      batch.answer = this.searchBatchHere(batch);
      return;
    }
    batch.answered = answer.then(
      (answer) => {
        batch.answer = answer;
      },
      // A helper that failed: its batch is searched here, in its place in the order.
      () => {
        batch.answer = this.searchBatchHere(batch);
      },
    );
  }

  /** One file searched on this thread, its hits delivered as they are found (nothing is in flight). */
  private searchHere(folder: FolderHandle, name: string, relative: string): void {
    const { settings } = this;
    const path = `${settings.mountName}/${relative}`;
    const scanned = searchFile({ folder, name }, settings.matcher, settings.rules, (hit) => {
      if (settings.onMatch({ path, ...hit })) return true;
      this.stop();
      return false;
    });
    if (scanned) this.filesScanned += 1;
  }

  private searchBatchHere(batch: FileBatch): BatchAnswer {
    return searchFileBatch(batch, this.settings.matcher, this.settings.rules, () => this.stopped);
  }

  /** Delivers the answered batches at the head of the queue, in order, and releases their folders. */
  private deliverAnswered(): void {
    while (this.inFlight[0]?.answer !== undefined) {
      const batch = this.inFlight.shift()!;
      if (!this.stopped) this.deliver(batch, batch.answer!);
      release(batch);
    }
  }

  private deliver(batch: Batch, answer: BatchAnswer): void {
    let file = 0;
    let hit = 0;
    for (const [index, relative] of batch.relatives.entries()) {
      if (index >= answer.scanned.length) {
        // Left unsearched: the search was stopping, or the hits before this file filled its limit.
        this.stop();
        return;
      }
      this.filesScanned += answer.scanned[index]!;
      if (answer.hitFiles[file] !== index) continue;
      const path = `${this.settings.mountName}/${relative}`;
      for (const end = hit + answer.hitCounts[file]!; hit < end; hit += 1) {
        if (!this.settings.onMatch(matchAt(answer, hit, path))) {
          this.stop();
          return;
        }
      }
      file += 1;
    }
  }
}

function emptyBatch(): Batch {
  return { groups: [], size: 0, relatives: [], folders: [] };
}

/** The batch no longer needs its folders. */
function release(batch: Batch): void {
  for (const folder of batch.folders) {
    folder.users -= 1;
    closeIfUnused(folder);
  }
  batch.folders = [];
}

function closeIfUnused(folder: QueuedFolder): void {
  if (folder.left && folder.users === 0 && folder.handle.fd >= 0) {
    closeSync(folder.handle.fd);
    folder.handle.fd = -1;
  }
}
