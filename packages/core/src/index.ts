/**
 * @sieve/core — data-oriented collision detection for JavaScript game engines.
 *
 * One folder per concept; each has its own barrel file:
 * - `broadphase/` — incremental sweep and prune, octree, brute-force reference (one shared contract).
 * - `narrowphase/` — OCSI sphere–box tests (per call and batched), OBB–OBB separating axes. (The OCSI
 *   paper's reference variants and its benchmark's configuration generator live in `bench/ocsi/`.)
 * - `bvh/` — packed triangle BVH, mesh–mesh, mesh–shape and ray queries.
 * - `ccd/` — continuous collision: time of impact by conservative advancement, swept bounds.
 * - `math/` — small vector, quaternion and OBB helpers shared by the rest.
 * - `sync/` — the engine seam: a table of engine bodies and their proxies, and the pair order of
 *   the engines' own loops (what the adapters build on).
 *
 * `growArray` (how every typed array here grows) and `sortEndpoints` (the sweep and prune's bulk sort of
 * values with a token each) are exported for the engine adapters, which keep their per-body arrays and
 * sort their sweeps the same way; `checkOptionKeys` (unknown option keys throw) and `optionKeys`
 * (an interface's key list, kept complete by the compiler) for every package's options objects.
 */
export * from './broadphase/index.js';
export * from './bvh/index.js';
export * from './ccd/index.js';
export { growArray } from './growArray.js';
export * from './math/index.js';
export * from './narrowphase/index.js';
export { checkOptionKeys, optionKeys } from './options.js';
export { sortEndpoints } from './sortEndpoints.js';
export * from './sync/index.js';
