/**
 * The one way typed arrays grow in this package: to at least `size` elements by doubling, keeping their
 * contents (capacities are reached once, then nothing is allocated per frame).
 */

/**
 * Grows a typed array to at least `size` elements (doubling, 16 at least), keeping its contents; the
 * new elements are 0. Returns the same array when it is already long enough.
 *
 * In a loop over boxes, pairs or entries, test the length at the call site and call this only when the
 * array is full (`if (n === a.length) a = growArray(a, n + 1)`): this one function sees every typed-array
 * type, so its own length check is a megamorphic call, while the caller's sees one type and is inlined
 * (at 100 000 boxes, thousands of such calls a frame that grew nothing took 2.4 % of its profile).
 *
 * @internal
 */
export function growArray<T extends Int32Array | Float64Array | Uint8Array | Uint32Array | Float32Array>(
  array: T,
  size: number,
): T {
  if (array.length >= size) return array;
  let n = Math.max(array.length * 2, 16);
  while (n < size) n *= 2;
  const next = new (array.constructor as new (n: number) => T)(n);
  next.set(array);
  return next;
}
