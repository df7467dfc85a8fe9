/**
 * The measuring loop of the heap-growth probes (child processes run with `--expose-gc`): windows of
 * `frames` calls of a frame function, each after a full GC, and the growth of the used heap over each.
 *
 * The runtime adds heap traffic of its own to the first windows after a warm-up (tens to hundreds of
 * kB a window for several windows, even around an empty loop; longer on a loaded machine), never to
 * all of them: a probe that asserts a quiet window runs until one (`quietBelow`), a control that must
 * show its allocation in every window runs a fixed count.
 */

/** Options of {@link heapWindows}. */
export interface HeapWindowOptions {
  /** Calls of the frame function per window. */
  frames: number;
  /** Most windows run. */
  windows: number;
  /** Stop after the first window that grew the heap by less than this many bytes (none: run them all). */
  quietBelow?: number;
}

/** Runs the windows and returns each one's heap growth in bytes; `frame` gets its index in the window. */
export function heapWindows(frame: (f: number) => void, o: HeapWindowOptions): number[] {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('heapWindows: run the probe with node --expose-gc');
  const growth: number[] = [];
  for (let w = 0; w < o.windows; w++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let f = 0; f < o.frames; f++) frame(f);
    growth.push(process.memoryUsage().heapUsed - before);
    if (o.quietBelow !== undefined && growth[w] < o.quietBelow) break;
  }
  return growth;
}
