/**
 * A sparse uniform grid: an open-addressing hash from integer cell coordinates (2 or 3 of them,
 * stored as doubles so cells of far-away coordinates need no wrapping) to a small integer value —
 * the index of the sweep-and-prune region that covers the cell. No allocation per lookup.
 */

export class CellGrid {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  /** Cells stored. */
  size = 0;

  constructor(
    readonly dimensions: 2 | 3,
    capacity = 64,
  ) {
    let n = 16;
    while (n < 2 * capacity) n *= 2;
    this.keys = new Float64Array(n * dimensions);
    this.values = new Int32Array(n).fill(-1);
    this.mask = n - 1;
  }

  private static hash(x: number, y: number, z: number): number {
    // Cells are integers; |0 folds large ones, equality below still compares the exact doubles.
    let h = Math.imul(x | 0, 0x8da6b343) ^ Math.imul(y | 0, 0xd8163841) ^ Math.imul(z | 0, 0xcb1ab31f);
    h ^= h >>> 15;
    return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
  }

  /** The value stored for cell (x, y, z) — z is ignored in 2-D — or -1. */
  get(x: number, y: number, z: number): number {
    const d = this.dimensions;
    const keys = this.keys;
    let i = CellGrid.hash(x, y, d === 3 ? z : 0) & this.mask;
    for (;;) {
      const v = this.values[i];
      if (v < 0) return -1;
      const o = i * d;
      if (keys[o] === x && keys[o + 1] === y && (d === 2 || keys[o + 2] === z)) return v;
      i = (i + 1) & this.mask;
    }
  }

  /** Stores `value` for a cell that is not in the grid yet. */
  set(x: number, y: number, z: number, value: number): void {
    if (2 * (this.size + 1) > this.mask + 1) this.rehash();
    this.place(x, y, z, value);
    this.size++;
  }

  /** Removes a cell (backward-shift deletion: no tombstones). */
  delete(x: number, y: number, z: number): void {
    const d = this.dimensions;
    const keys = this.keys;
    const mask = this.mask;
    let i = CellGrid.hash(x, y, d === 3 ? z : 0) & mask;
    for (;;) {
      if (this.values[i] < 0) return;
      const o = i * d;
      if (keys[o] === x && keys[o + 1] === y && (d === 2 || keys[o + 2] === z)) break;
      i = (i + 1) & mask;
    }
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (this.values[j] < 0) break;
      const o = j * d;
      const home = CellGrid.hash(keys[o], keys[o + 1], d === 3 ? keys[o + 2] : 0) & mask;
      // The entry at j may move back to i unless its home lies cyclically in (i, j].
      const stays = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!stays) {
        for (let k = 0; k < d; k++) keys[i * d + k] = keys[o + k];
        this.values[i] = this.values[j];
        i = j;
      }
    }
    this.values[i] = -1;
    this.size--;
  }

  /** Forgets every cell. */
  clear(): void {
    this.values.fill(-1);
    this.size = 0;
  }

  private place(x: number, y: number, z: number, value: number): void {
    const d = this.dimensions;
    let i = CellGrid.hash(x, y, d === 3 ? z : 0) & this.mask;
    while (this.values[i] >= 0) i = (i + 1) & this.mask;
    const o = i * d;
    this.keys[o] = x;
    this.keys[o + 1] = y;
    if (d === 3) this.keys[o + 2] = z;
    this.values[i] = value;
  }

  private rehash(): void {
    const d = this.dimensions;
    const oldKeys = this.keys;
    const oldValues = this.values;
    const n = 2 * (this.mask + 1);
    this.keys = new Float64Array(n * d);
    this.values = new Int32Array(n).fill(-1);
    this.mask = n - 1;
    for (let i = 0; i < oldValues.length; i++) {
      if (oldValues[i] >= 0) {
        this.place(oldKeys[i * d], oldKeys[i * d + 1], d === 3 ? oldKeys[i * d + 2] : 0, oldValues[i]);
      }
    }
  }
}
