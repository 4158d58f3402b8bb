// A minimal test runner for code that runs inside the VS Code extension host (no mocha needed): tests run in order,
// each prints a TAP-like line, and run() rejects when any failed, which VS Code turns into a non-zero exit code.

type TestFn = () => Promise<void> | void;
const tests: { name: string; fn: TestFn }[] = [];

export function test(name: string, fn: TestFn): void {
  tests.push({ name, fn });
}

export async function runAll(): Promise<void> {
  let failed = 0;
  const t0 = Date.now();
  for (const [i, t] of tests.entries()) {
    const t1 = Date.now();
    try {
      await t.fn();
      console.log(`ok ${i + 1} - ${t.name} (${Date.now() - t1} ms)`);
    } catch (e) {
      failed++;
      const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
      console.log(`not ok ${i + 1} - ${t.name}\n${msg.replace(/^/gm, '#   ')}`);
    }
  }
  console.log(`# in-host: ${tests.length - failed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (failed) throw new Error(`${failed} in-host test(s) failed`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `get` until `done(value)` holds or `timeoutMs` passes; returns the last value either way (the caller asserts). */
export async function poll<T>(get: () => T | PromiseLike<T>, done: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = await get();
  while (!done(v) && Date.now() < end) {
    await sleep(50);
    v = await get();
  }
  return v;
}
