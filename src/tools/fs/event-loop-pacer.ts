import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work between yields to the event loop, so timeouts, aborts and Ctrl+C are seen while a large tree is walked. */
const sliceMs = 20;
/** The clock is read only every this many steps: a step can be as cheap as one directory entry. */
const stepsPerClockRead = 64;

/**
 * Lets a long synchronous walk give the event loop a turn every few milliseconds. Call `step()` once per unit of
 * work (an entry, a file); it resolves at once except when the slice is used up.
 */
export class EventLoopPacer {
  private sliceStart = Date.now();
  private steps = 0;

  /** True when the caller should `await yield()` now. */
  due(): boolean {
    this.steps += 1;
    if (this.steps % stepsPerClockRead !== 0) return false;
    return Date.now() - this.sliceStart > sliceMs;
  }

  async yield(): Promise<void> {
    await nextTurn();
    this.sliceStart = Date.now();
  }
}
