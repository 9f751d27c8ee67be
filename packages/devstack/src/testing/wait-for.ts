/** Polls `probe` every 50 ms until it yields a truthy value, failing with `what` after the timeout. */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
