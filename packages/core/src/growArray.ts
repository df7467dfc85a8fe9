/**
 * The one way typed arrays grow in this package: to at least `size` elements by doubling, keeping their
 * contents (capacities are reached once, then nothing is allocated per frame).
 */

/** Grows a typed array to at least `size` elements (doubling), keeping its contents. */
export function growArray<T extends Int32Array | Float64Array | Uint8Array>(array: T, size: number): T {
  if (array.length >= size) return array;
  let n = Math.max(array.length * 2, 16);
  while (n < size) n *= 2;
  const next = new (array.constructor as new (n: number) => T)(n);
  next.set(array);
  return next;
}
