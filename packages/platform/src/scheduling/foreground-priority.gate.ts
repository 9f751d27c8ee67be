// Some work has a caller waiting on it (a robot's poll, whose lease starts ticking when the batch
// is handed over) and some has none (importing submitted results, relaying events). On a busy
// process the second kind queues in front of the first. The gate lets background steps start only
// while no foreground work is in flight, at most `backgroundSlots` at a time while foreground work
// is recent (in flight or ended less than `recentMs` ago) and `idleBackgroundSlots` otherwise, and
// never makes a step wait longer than `maxWaitMs`, so background work still progresses under
// constant foreground load.

export interface ForegroundPriorityGate {
  /** Runs foreground work; background steps that have not started wait until none is in flight. */
  inForeground<T>(work: () => Promise<T>): Promise<T>;
  /** Runs a background step when it is its turn. */
  inBackgroundTurn<T>(step: () => Promise<T>): Promise<T>;
  /** Whether foreground work is in flight or ended less than `ms` (default `recentMs`) ago: background work may then take smaller steps. */
  foregroundWithin(ms?: number): boolean;
}

export interface ForegroundPriorityOptions {
  maxWaitMs: number;
  backgroundSlots: number;
  /** Slots once foreground work has been quiet for `recentMs`; `backgroundSlots` when absent. */
  idleBackgroundSlots?: number;
  recentMs?: number;
}

export function createForegroundPriorityGate(options: ForegroundPriorityOptions): ForegroundPriorityGate {
  const recentMs = options.recentMs ?? 1000;
  const idleSlots = options.idleBackgroundSlots ?? options.backgroundSlots;
  let foreground = 0;
  let lastForegroundEnd = Number.NEGATIVE_INFINITY;
  let running = 0;
  // Steps waiting for their turn, oldest first.
  const queue: Array<{ start: () => void; waitingSince: number }> = [];
  let timer: NodeJS.Timeout | undefined;

  const recent = (now: number) => foreground > 0 || now - lastForegroundEnd < recentMs;

  function startWhatMay(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const now = Date.now();
    const slots = recent(now) ? options.backgroundSlots : idleSlots;
    while (queue.length > 0 && running < slots) {
      const overdue = now - queue[0].waitingSince >= options.maxWaitMs;
      if (foreground > 0 && !overdue) break;
      running += 1;
      queue.shift()!.start();
    }
    if (queue.length === 0) return;
    // Held back by foreground work: wake when the oldest step's wait runs out; held back by the
    // recent-foreground slot count: wake when foreground work stops being recent.
    const wakes: number[] = [];
    if (running < slots) wakes.push(queue[0].waitingSince + options.maxWaitMs);
    if (foreground === 0 && slots < idleSlots) wakes.push(lastForegroundEnd + recentMs);
    if (wakes.length > 0) {
      timer = setTimeout(startWhatMay, Math.max(0, Math.min(...wakes) - now));
      timer.unref();
    }
  }

  return {
    async inForeground(work) {
      foreground += 1;
      try {
        return await work();
      } finally {
        foreground -= 1;
        lastForegroundEnd = Date.now();
        if (foreground === 0) startWhatMay();
      }
    },
    async inBackgroundTurn(step) {
      await new Promise<void>((start) => {
        queue.push({ start, waitingSince: Date.now() });
        startWhatMay();
      });
      try {
        return await step();
      } finally {
        running -= 1;
        startWhatMay();
      }
    },
    foregroundWithin(ms = recentMs) {
      return foreground > 0 || Date.now() - lastForegroundEnd < ms;
    },
  };
}
