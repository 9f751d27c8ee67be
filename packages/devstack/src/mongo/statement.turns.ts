// A bulk write of thousands of statements would hold the single-threaded server for tens of
// milliseconds; like mongod's periodic yields, it gives other connections a turn between
// statements once it has run for a slice of time.

import { performance } from 'node:perf_hooks';

/** How long a write command runs before other commands get a turn. */
export const STATEMENT_SLICE_MS = 4;
/** The clock is read once per this many statements. */
const STATEMENTS_BETWEEN_CLOCK_READS = 16;

export class StatementTurns {
  private sliceStart = performance.now();
  private sinceClockRead = 0;

  constructor(private readonly sliceMs = STATEMENT_SLICE_MS) {}

  /** True when the current slice is used up and the caller should `yield` before its next statement. */
  due(): boolean {
    this.sinceClockRead += 1;
    if (this.sinceClockRead < STATEMENTS_BETWEEN_CLOCK_READS) return false;
    this.sinceClockRead = 0;
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Lets pending I/O and other connections' commands run, then starts a new slice. */
  async yield(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}
