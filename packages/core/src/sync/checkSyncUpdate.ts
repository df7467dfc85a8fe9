/**
 * The check engine adapters make on a broadphase instance they are given: engines step synchronously,
 * so a broadphase whose `update()` cannot run on this thread (a `ParallelSweepAndPrune` on worker
 * threads, on a browser page's main thread, where `Atomics.wait` is not allowed) is refused when it is
 * installed, rather than throw inside the engine's step.
 */

/**
 * Throws a `RangeError` naming `where` when `broadphase.syncUpdate` is false; `step` names the engine's
 * synchronous step (`'world.step'`) and `owner` what runs it (`'world'`), for the advice.
 *
 * @internal
 */
export function checkSyncUpdate(broadphase: object, where: string, step: string, owner: string): void {
  if ((broadphase as { syncUpdate?: unknown }).syncUpdate === false) {
    throw new RangeError(
      `${where} cannot update synchronously on this thread (its worker threads need a blocking wait, which a browser page's main thread does not allow), and ${step} is synchronous: run the ${owner} in a Web Worker, or build the broadphase with inThread: true`,
    );
  }
}
