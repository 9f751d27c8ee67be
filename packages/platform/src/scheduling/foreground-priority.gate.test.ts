import { createForegroundPriorityGate } from './foreground-priority.gate';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('foreground priority gate', () => {
  it('when no foreground work is in flight, then a background step starts at once', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 1 });
    const started = Date.now();
    await expect(gate.inBackgroundTurn(async () => 'done')).resolves.toBe('done');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('when foreground work is in flight, then a background step waits until it ends, and starts right after', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 1 });
    const poll = deferred();
    const order: string[] = [];
    const foreground = gate.inForeground(async () => {
      await poll.promise;
      order.push('poll finished');
    });
    const background = gate.inBackgroundTurn(async () => {
      order.push('import step started');
    });
    await tick();
    await tick();
    expect(order).toEqual([]);
    poll.resolve();
    await Promise.all([foreground, background]);
    expect(order).toEqual(['poll finished', 'import step started']);
  });

  it('when foreground work never stops, then a background step still starts once it has waited maxWaitMs', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 80, backgroundSlots: 1 });
    const poll = deferred();
    const foreground = gate.inForeground(() => poll.promise);
    const started = Date.now();
    await gate.inBackgroundTurn(async () => undefined);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(70);
    expect(waited).toBeLessThan(5000);
    poll.resolve();
    await foreground;
  });

  it('when more background steps arrive than there are slots, then they run that many at a time, oldest first', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 2 });
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const steps = Array.from({ length: 6 }, (_unused, index) =>
      gate.inBackgroundTurn(async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(index);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
      }),
    );
    await Promise.all(steps);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('when a background step fails, then its slot is given back and the failure reaches its caller', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 1 });
    await expect(gate.inBackgroundTurn(async () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    await expect(gate.inBackgroundTurn(async () => 'next')).resolves.toBe('next');
  });

  it('when foreground work fails, then waiting background steps are released all the same', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 1 });
    const poll = deferred();
    const foreground = gate.inForeground(async () => {
      await poll.promise;
      throw new Error('poll failed');
    });
    const background = gate.inBackgroundTurn(async () => 'ran');
    poll.resolve();
    await expect(foreground).rejects.toThrow('poll failed');
    await expect(background).resolves.toBe('ran');
  });

  it('when a step is already running and foreground work arrives, then the next step waits but the running one is not interrupted', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 2 });
    const first = deferred();
    const order: string[] = [];
    const running = gate.inBackgroundTurn(async () => {
      await first.promise;
      order.push('first step finished');
    });
    await tick();
    const poll = deferred();
    const foreground = gate.inForeground(async () => {
      await poll.promise;
      order.push('poll finished');
    });
    const second = gate.inBackgroundTurn(async () => {
      order.push('second step started');
    });
    first.resolve();
    await running;
    await tick();
    expect(order).toEqual(['first step finished']);
    poll.resolve();
    await Promise.all([foreground, second]);
    expect(order).toEqual(['first step finished', 'poll finished', 'second step started']);
  });

  it('when foreground work is in flight or ended within the window, then foregroundWithin says so, and not once the window has passed', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 1 });
    expect(gate.foregroundWithin(1000)).toBe(false);
    const poll = deferred();
    const foreground = gate.inForeground(() => poll.promise);
    expect(gate.foregroundWithin(0)).toBe(true);
    poll.resolve();
    await foreground;
    expect(gate.foregroundWithin(1000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(gate.foregroundWithin(50)).toBe(false);
  });

  it('when foreground work is recent, then background steps run backgroundSlots at a time, and idleBackgroundSlots at a time once it has been quiet for recentMs', async () => {
    const gate = createForegroundPriorityGate({ maxWaitMs: 10_000, backgroundSlots: 1, idleBackgroundSlots: 3, recentMs: 150 });
    await gate.inForeground(async () => undefined);
    let running = 0;
    let mostWhileRecent = 0;
    let most = 0;
    const recentUntil = Date.now() + 150;
    const steps = Array.from({ length: 12 }, () =>
      gate.inBackgroundTurn(async () => {
        running += 1;
        most = Math.max(most, running);
        if (Date.now() < recentUntil - 20) mostWhileRecent = Math.max(mostWhileRecent, running);
        await new Promise((resolve) => setTimeout(resolve, 40));
        running -= 1;
      }),
    );
    await Promise.all(steps);
    expect(mostWhileRecent).toBe(1);
    expect(most).toBe(3);
  });
});
