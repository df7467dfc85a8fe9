// AssemblyScript source of the WebAssembly kernel behind SweepAndPrune's insertion-sort passes (see ../passes.ts).
// Built by packages/core/scripts/build-wasm.mjs into passKernel.generated.ts (base64, loaded synchronously).
// Not TypeScript: the extension keeps tsc, biome and vitest away from it; asc compiles it as AssemblyScript.
//
// The same algorithm as SapPasses.writeRegionValues (all boxes) and SapPasses.passRegion, operation for operation,
// over the same arrays, which live in this module's memory (kernelHeap.ts): one insertion-sort pass per axis
// (Bullet's btAxisSweep3 sorts by the same sift), every min/max swap tested for overlap on the other axes from the
// endpoint positions, as in SapLists.meetOnOtherAxes. The swaps that meet are not applied here: each is recorded
// (moving token, passed token, axis) for the caller to apply in order, since the pair set lives in JavaScript.
// A call stops before a sift that could overflow the record buffer, and the next call resumes there.
//
// Addresses are byte offsets into the memory; `d` is 2 or 3; box bounds are 2·d float64 per slot, mins then maxes;
// `where` holds 2·d int32 per entry (axis k's min at 2k, max at 2k + 1).

let v0: usize = 0;
let v1: usize = 0;
let v2: usize = 0;
let t0: usize = 0;
let t1: usize = 0;
let t2: usize = 0;
let whereAt: usize = 0;
let entryObject: usize = 0;
let box: usize = 0;
let fixed: usize = 0;
let entries: usize = 0;
let records: usize = 0;
let resumeAxisValue: i32 = 0;
let resumeIndexValue: i32 = -1;
let touchSink: f64 = 0;

/** Where the arrays are (after the caller moved them into this memory). */
export function setArrays(
  values0: usize, values1: usize, values2: usize, tokens0: usize, tokens1: usize, tokens2: usize,
  where: usize, objects: usize, bounds: usize, statics: usize, entryList: usize, swapRecords: usize,
): void {
  v0 = values0; v1 = values1; v2 = values2; t0 = tokens0; t1 = tokens1; t2 = tokens2;
  whereAt = where; entryObject = objects; box = bounds; fixed = statics; entries = entryList; records = swapRecords;
}

/** The sum the cache-warming loads leave (exported so that the loads are kept). */
export function touchTotal(): f64 {
  return touchSink;
}

/** The axis a stopped call resumes on. */
export function resumeAxis(): i32 {
  return resumeAxisValue;
}

/** The arena index a stopped call resumes at (-1: the region is done). */
export function resumeIndex(): i32 {
  return resumeIndexValue;
}

@inline function ld32(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

@inline function st32(base: usize, i: i32, x: i32): void {
  store<i32>(base + (<usize>i << 2), x);
}

@inline function ld64(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}

@inline function st64(base: usize, i: i32, x: f64): void {
  store<f64>(base + (<usize>i << 3), x);
}

// Entries ea and eb overlap on every axis but `skip`, from their endpoints' positions.
@inline function meet(ea: i32, eb: i32, skip: i32, d: i32): bool {
  const wa = ea * 2 * d;
  const wb = eb * 2 * d;
  for (let k = 0; k < d; k++) {
    if (k != skip && (ld32(whereAt, wa + 2 * k) > ld32(whereAt, wb + 2 * k + 1) || ld32(whereAt, wb + 2 * k) > ld32(whereAt, wa + 2 * k + 1)))
      return false;
  }
  return true;
}

// Every entry of the region takes its box's latest bounds (SapPasses.writeRegionValues with `all`).
function writeValues(first0: i32, length: i32, d: i32): void {
  const d2 = 2 * d;
  let count = 0;
  for (let i = first0; i < first0 + length; i++) {
    const token = ld32(t0, i);
    st32(entries, count, token >> 1);
    count += (token & 1) ^ 1;
  }
  // A loop that only loads each box's first and last bound: many cache misses in flight at once.
  let touch: f64 = 0;
  for (let j = 0; j < count; j++) {
    const o = ld32(entryObject, ld32(entries, j)) * d2;
    touch += ld64(box, o) + ld64(box, o + d2 - 1);
  }
  touchSink = touch;
  for (let j = 0; j < count; j++) {
    const e = ld32(entries, j);
    const o = ld32(entryObject, e) * d2;
    const w = e * d2;
    st64(v0, ld32(whereAt, w), ld64(box, o));
    st64(v0, ld32(whereAt, w + 1), ld64(box, o + d));
    st64(v1, ld32(whereAt, w + 2), ld64(box, o + 1));
    st64(v1, ld32(whereAt, w + 3), ld64(box, o + d + 1));
    if (d == 3) {
      st64(v2, ld32(whereAt, w + 4), ld64(box, o + 2));
      st64(v2, ld32(whereAt, w + 5), ld64(box, o + 5));
    }
  }
}

/**
 * Region (lists at first0/first1/first2, `length` endpoints each): writes the new values (unless resuming), then
 * one pass per axis from (`axis`, `at`) on (`at` < 0: from the start). Returns the records written (3 int32 each:
 * moving token, passed token, axis); resumeIndex() says where to go on (-1: done).
 */
export function passRegion(
  first0: i32, first1: i32, first2: i32, length: i32, d: i32, anyFixed: i32, capacity: i32, axis: i32, at: i32,
): i32 {
  let count = 0;
  if (at < 0) {
    writeValues(first0, length, d);
    axis = 0;
  }
  resumeIndexValue = -1;
  if (length <= 2) return 0;
  for (let k = axis; k < d; k++) {
    const v = k == 0 ? v0 : k == 1 ? v1 : v2;
    const t = k == 0 ? t0 : k == 1 ? t1 : t2;
    const first = k == 0 ? first0 : k == 1 ? first1 : first2;
    const end = first + length;
    let j = k == axis && at >= 0 ? at : first + 1;
    // The prefix below j is sorted: its largest value is at j - 1.
    let prev = ld64(v, j - 1);
    for (; j < end; j++) {
      const value = ld64(v, j);
      const token = ld32(t, j);
      const isMax = token & 1;
      if (prev < value || (prev == value && (ld32(t, j - 1) & 1) <= isMax)) {
        prev = value;
        continue;
      }
      if (count + (j - first) > capacity) {
        resumeAxisValue = k;
        resumeIndexValue = j;
        return count;
      }
      const movingFixed = anyFixed != 0 && load<u8>(fixed + <usize>ld32(entryObject, token >> 1)) == 1;
      let i = j;
      while (i != first) {
        const nv = ld64(v, i - 1);
        const nt = ld32(t, i - 1);
        if (nv < value || (nv == value && (nt & 1) <= isMax)) break;
        if (
          (nt & 1) != isMax &&
          (!movingFixed || load<u8>(fixed + <usize>ld32(entryObject, nt >> 1)) == 0) &&
          meet(token >> 1, nt >> 1, k, d)
        ) {
          st32(records, 3 * count, token);
          st32(records, 3 * count + 1, nt);
          st32(records, 3 * count + 2, k);
          count++;
        }
        st64(v, i, nv);
        st32(t, i, nt);
        st32(whereAt, (nt >> 1) * 2 * d + 2 * k + (nt & 1), i);
        i--;
      }
      st64(v, i, value);
      st32(t, i, token);
      st32(whereAt, (token >> 1) * 2 * d + 2 * k + isMax, i);
    }
  }
  return count;
}
