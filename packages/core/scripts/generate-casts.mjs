#!/usr/bin/env node
/**
 * Generates the specialised BVH walks from the one traversal, `shapecast` in src/bvh/shapecast.ts.
 *
 *   node packages/core/scripts/generate-casts.mjs          # (re)write src/bvh/*.generated.ts
 *   node packages/core/scripts/generate-casts.mjs --check  # exit 1 if a generated file is out of date
 *
 * The generic walk calls its query through a `BvhCast` object. For the hottest query, the closest-hit
 * ray cast, that costs about a quarter of its speed (the slab constants cannot stay in registers across
 * the calls), so — as three-mesh-bvh does with its `*.template.js` casts — a copy specialised for it is
 * generated: the body of `shapecast` with each `// @hook NAME` … `// @end` region replaced by the
 * query's code below. The stack discipline, child order and pop rule are those of `shapecast`; change
 * them there and rerun this script.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bvhDir = join(here, '..', 'src', 'bvh');
const templatePath = join(bvhDir, 'shapecast.ts');

/** Slab test of the node box at word `W` against the ray, entry distance into `K`, result into `HIT`. */
const slab = (W, K, HIT) => `const ${K} = Math.max(
  near,
  (f[${W}nx] - oxn) * ix,
  (f[${W}ny] - oyn) * iy,
  (f[${W}nz] - ozn) * iz,
);
const ${HIT} =
  ${K} <= Math.min(best, (f[${W}fx] - oxf) * ix, (f[${W}fy] - oyf) * iy, (f[${W}fz] - ozf) * iz);`;

/** Ray constants in locals; `best` (the far end of the range) is `let` when it shrinks to the best hit. */
const raySetup = (kind) => `const v = bvh.triVerts;
const ids = bvh.triIds;
// Slab constants in locals (entry-plane word offsets: 0–2 for min, 3–5 for max).
const nx = NEAR[0];
const ny = NEAR[1];
const nz = NEAR[2];
const fx = 3 - nx;
const fy = 5 - ny;
const fz = 7 - nz;
const oxn = SLAB[3];
const oyn = SLAB[4];
const ozn = SLAB[5];
const oxf = SLAB[6];
const oyf = SLAB[7];
const ozf = SLAB[8];
const ix = SLAB[9];
const iy = SLAB[10];
const iz = SLAB[11];
const near = RANGE[NEAR_T];
// Read back as float64 so \`best\` stays an unboxed double.
${kind} best = RANGE[CUTOFF];`;

/** The specialised walks: output file, function, imports, and the code of each hook. */
export const specs = [
  {
    file: 'raycastFirstWalk.generated.ts',
    doc: `/**
 * Closest-hit walk of \`raycastFirst\` (ray set up by \`setupRay\` and \`setupSlabFor\` in \`ray.ts\`,
 * range in \`RANGE\`): nearer child first, subtrees entered beyond the best hit skipped, the best hit
 * left in \`BEST_I\`, \`BEST_BARY\` and \`RANGE[CUTOFF]\` (ties: lower triangle index). Returns false.
 */`,
    signature: 'export function raycastFirstWalk(bvh: MeshBVH): boolean {',
    imports: `import { growArray } from '../growArray.js';
import type { MeshBVH } from './MeshBVH.js';
import { NODE_WORDS } from './nodes.js';
import { BEST_BARY, BEST_I, BEST_ID, BEST_SLOT, HIT, NEAR, NEAR_T, RANGE, rayTriangle, SLAB } from './ray.js';
import { CUTOFF } from './shapecast.js';`,
    hooks: {
      setup: raySetup('let'),
      root: `${slab('', 't0', 'hit0')}
if (!hit0) return false;`,
      visit: 'const live = true;',
      leaf: `for (let s = n[w + 6], end = s + ~tag; s < end; s++) {
  if (rayTriangle(v, 9 * s)) {
    const id = ids[s];
    const t = HIT[0];
    if (t < best || BEST_I[BEST_SLOT] < 0 || id < BEST_I[BEST_ID]) {
      best = t;
      RANGE[CUTOFF] = t;
      BEST_I[BEST_SLOT] = s;
      BEST_I[BEST_ID] = id;
      BEST_BARY[0] = HIT[1];
      BEST_BARY[1] = HIT[2];
      BEST_BARY[2] = HIT[3];
    }
  }
}`,
      children: `${slab('wl + ', 'kl', 'hitL')}
${slab('wr + ', 'kr', 'hitR')}`,
      pop: 'if (ks[sp] <= best) break;',
    },
  },
  {
    file: 'raycastAllWalk.generated.ts',
    doc: `/**
 * Every-hit walk of \`raycastAll\` (ray set up as for \`raycastFirstWalk\`): every hit within
 * \`[RANGE[NEAR_T], RANGE[CUTOFF]]\` is pushed to \`hits\`, nearer subtrees first (the caller sorts them).
 * Returns false.
 */`,
    signature: 'export function raycastAllWalk(bvh: MeshBVH, hits: RayHits): boolean {',
    imports: `import { growArray } from '../growArray.js';
import type { MeshBVH } from './MeshBVH.js';
import { NODE_WORDS } from './nodes.js';
import { HIT, NEAR, NEAR_T, RANGE, rayTriangle, SLAB } from './ray.js';
import type { RayHits } from './raycast.js';
import { CUTOFF } from './shapecast.js';`,
    hooks: {
      setup: raySetup('const'),
      root: `${slab('', 't0', 'hit0')}
if (!hit0) return false;`,
      visit: 'const live = true;',
      leaf: `for (let s = n[w + 6], end = s + ~tag; s < end; s++) {
  if (rayTriangle(v, 9 * s)) hits.pushHit(s, ids[s], HIT);
}`,
      children: `${slab('wl + ', 'kl', 'hitL')}
${slab('wr + ', 'kr', 'hitR')}`,
      pop: 'break;',
    },
  },
];

/** The text of `shapecast` (from its signature to its closing brace) and the stack declarations. */
function readTemplate() {
  const src = readFileSync(templatePath, 'utf8');
  const start = src.indexOf('export function shapecast(');
  const end = src.indexOf('\n}\n', start);
  if (start < 0 || end < 0) throw new Error('generate-casts: shapecast() not found in shapecast.ts');
  const stacks = src.match(/^let nodeStack = .*;\nlet keyStack = .*;$/m);
  if (!stacks) throw new Error('generate-casts: stack declarations not found in shapecast.ts');
  return { body: src.slice(start, end + 2), stacks: stacks[0] };
}

/** `body` with the signature replaced and every hook region replaced by `hooks[name]`, re-indented. */
function specialise(body, spec) {
  const lines = body.split('\n');
  lines[0] = spec.signature;
  const out = [];
  const seen = new Set();
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^(\s*)\/\/ @hook (\w+)$/);
    if (!m) {
      out.push(lines[i]);
      continue;
    }
    const [, indent, name] = m;
    if (!(name in spec.hooks)) throw new Error(`generate-casts: ${spec.file} has no hook '${name}'`);
    seen.add(name);
    while (i < lines.length && !/^\s*\/\/ @end$/.test(lines[i])) i++;
    for (const l of spec.hooks[name].split('\n')) out.push(l === '' ? '' : indent + l);
  }
  for (const name of Object.keys(spec.hooks)) {
    if (!seen.has(name)) throw new Error(`generate-casts: shapecast() has no hook '${name}'`);
  }
  return out.join('\n');
}

/** The generated module for `spec`, formatted by the repository's biome settings. */
export function generate(spec) {
  const { body, stacks } = readTemplate();
  const text = `// A BVH walk specialised for one query, generated by packages/core/scripts/generate-casts.mjs from
// shapecast() in shapecast.ts (as three-mesh-bvh generates its casts from templates) — do not edit;
// edit the template or the hooks in the script and run \`pnpm -C packages/core generate:casts\`.
${spec.imports}

${stacks}

${spec.doc}
${specialise(body, spec)}`;
  const biome = join(here, '..', '..', '..', 'node_modules', '.bin', 'biome');
  return execFileSync(biome, ['format', `--stdin-file-path=${join(bvhDir, spec.file)}`], {
    input: text,
    encoding: 'utf8',
  });
}

const check = process.argv.includes('--check');
let stale = 0;
for (const spec of specs) {
  const path = join(bvhDir, spec.file);
  const text = generate(spec);
  let old = '';
  try {
    old = readFileSync(path, 'utf8');
  } catch {}
  if (old === text) continue;
  if (check) {
    console.error(`generate-casts: ${spec.file} is out of date; run pnpm -C packages/core generate:casts`);
    stale++;
  } else {
    writeFileSync(path, text);
    console.log(`generate-casts: wrote ${spec.file}`);
  }
}
if (stale > 0) process.exit(1);
