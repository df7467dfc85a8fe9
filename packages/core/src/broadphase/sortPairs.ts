/**
 * In-place sort of a flat pair list `[a0, b0, a1, b1, ...]` ascending by `(a, b)`, without
 * allocating: quicksort (median of three) with insertion sort for short runs and a recursion bound
 * via an explicit stack, so the pair lists the broadphases report come out in one deterministic order.
 */

/** Whether pair i sorts before pair j. */
function less(p: Int32Array, i: number, j: number): boolean {
  const a = p[2 * i];
  const b = p[2 * j];
  return a < b || (a === b && p[2 * i + 1] < p[2 * j + 1]);
}

function swap(p: Int32Array, i: number, j: number): void {
  const a = p[2 * i];
  const b = p[2 * i + 1];
  p[2 * i] = p[2 * j];
  p[2 * i + 1] = p[2 * j + 1];
  p[2 * j] = a;
  p[2 * j + 1] = b;
}

function insertionSort(p: Int32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i <= hi; i++) {
    const a = p[2 * i];
    const b = p[2 * i + 1];
    let j = i - 1;
    while (j >= lo && (p[2 * j] > a || (p[2 * j] === a && p[2 * j + 1] > b))) {
      p[2 * j + 2] = p[2 * j];
      p[2 * j + 3] = p[2 * j + 1];
      j--;
    }
    p[2 * j + 2] = a;
    p[2 * j + 3] = b;
  }
}

// Explicit stack of [lo, hi] ranges; always pushing the larger half keeps it under 2·log2(n) entries.
const stack = new Int32Array(128);

/**
 * Sorts the first `count` pairs of `pairs` ascending by `(a, b)`.
 *
 * @internal
 */
export function sortPairs(pairs: Int32Array, count: number): void {
  let top = 0;
  stack[top++] = 0;
  stack[top++] = count - 1;
  while (top > 0) {
    let hi = stack[--top];
    let lo = stack[--top];
    while (hi - lo > 16) {
      const mid = (lo + hi) >>> 1;
      if (less(pairs, mid, lo)) swap(pairs, mid, lo);
      if (less(pairs, hi, lo)) swap(pairs, hi, lo);
      if (less(pairs, hi, mid)) swap(pairs, hi, mid);
      // Pivot (the median) goes to hi - 1; partition lo+1 .. hi-2.
      swap(pairs, mid, hi - 1);
      const pa = pairs[2 * (hi - 1)];
      const pb = pairs[2 * (hi - 1) + 1];
      let i = lo;
      let j = hi - 1;
      for (;;) {
        do i++;
        while (pairs[2 * i] < pa || (pairs[2 * i] === pa && pairs[2 * i + 1] < pb));
        do j--;
        while (pairs[2 * j] > pa || (pairs[2 * j] === pa && pairs[2 * j + 1] > pb));
        if (i >= j) break;
        swap(pairs, i, j);
      }
      swap(pairs, i, hi - 1);
      // Recurse into the smaller side by looping; push the larger.
      if (i - lo < hi - i) {
        stack[top++] = i + 1;
        stack[top++] = hi;
        hi = i - 1;
      } else {
        stack[top++] = lo;
        stack[top++] = i - 1;
        lo = i + 1;
      }
    }
    insertionSort(pairs, lo, hi);
  }
}
