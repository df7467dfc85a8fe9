/**
 * Layout of the sweep-and-prune records: endpoint tokens, the per-entry endpoint positions (`where`)
 * and the per-region list starts (`listFirst`), with the small inline accessors every part of
 * `SweepAndPrune` uses — one home for each formula, in the manner of `bvh/nodes.ts`.
 *
 * - A **token** names one endpoint in a sorted list: `entry << 1 | isMax` (Bullet's btAxisSweep3 keeps
 *   the same min/max bit in its edge handles). At equal values a min (0) sorts before a max (1), so
 *   touching boxes overlap.
 * - An **entry** is one box in one region. `where[entry · 2D + 2k + isMax]` is the arena index of its
 *   axis-k min or max ({@link whereAt}): one small record per entry, `2 · dimensions` int32 values.
 * - A **region**'s list of axis k starts at `listFirst[3r + k]` ({@link listAt}; three slots per region
 *   in 2-D too) and holds `regionLength[r]` endpoints.
 */

/** Region 0 holds the big boxes (and the boxes beyond the grid's range); cell regions follow. */
export const GLOBAL_REGION = 0;

/** `listFirst` slots per region: one per axis, three in 2-D too. */
export const LIST_STRIDE = 3;

/** The token of entry e's min endpoint. */
export function minToken(e: number): number {
  return e << 1;
}

/** The token of entry e's max endpoint. */
export function maxToken(e: number): number {
  return (e << 1) | 1;
}

/** The entry a token belongs to. */
export function tokenEntry(token: number): number {
  return token >> 1;
}

/** 1 if a token is a max endpoint, 0 for a min. */
export function tokenIsMax(token: number): number {
  return token & 1;
}

/** Index into `where` of entry e's axis-k endpoint (`isMax` 0 or 1); `d2` is 2 × dimensions. */
export function whereAt(e: number, d2: number, k: number, isMax: number): number {
  return e * d2 + 2 * k + isMax;
}

/** Index into `where` of the endpoint a token names, on axis k. */
export function whereOfToken(token: number, d2: number, k: number): number {
  return (token >> 1) * d2 + 2 * k + (token & 1);
}

/** Index into `listFirst` (and `regionCell`) of region r's axis k. */
export function listAt(r: number, k: number): number {
  return LIST_STRIDE * r + k;
}
