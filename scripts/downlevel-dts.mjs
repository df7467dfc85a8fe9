#!/usr/bin/env node
/**
 * Rewrites emitted declaration files (`.d.ts`, `.d.mts`, `.d.cts`) so that every TypeScript from 5.0 on
 * reads them, as `downlevel-dts` does for older versions. Run after the declaration build, in the
 * package directory: `node ../../scripts/downlevel-dts.mjs [dir ...]` (default `dist`). It walks the
 * whole folder, so new entry points are covered without touching this script.
 *
 * What TypeScript 5.7+ emits that 5.0–5.6 reject:
 * - generic typed arrays and DataView (`Float64Array<ArrayBuffer>`; TS2315 "Type 'Float64Array' is not
 *   generic" before 5.7): the type arguments are dropped, which is what those versions mean by the bare name;
 * - the iterator types of TS 5.6 (`ArrayIterator<T>`, `MapIterator<T>`, `SetIterator<T>`,
 *   `StringIterator<T>`, `IteratorObject<T, …>`, `BuiltinIteratorReturn`): rewritten to
 *   `IterableIterator<T>` / `any`, their pre-5.6 spelling;
 * - `NoInfer<T>` (TS 5.4): rewritten to `T`.
 * Afterwards the files are scanned for constructs that cannot be rewritten safely and the script exits
 * with an error naming them, so a build never ships declarations that an older compiler rejects silently.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float16Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'DataView',
];
const ITERATORS = ['ArrayIterator', 'MapIterator', 'SetIterator', 'StringIterator', 'IteratorObject'];

/** Index just past the `>` that closes the `<` at `open`, skipping nested `<…>` and `=>`. */
function closeAngle(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>' && text[i - 1] !== '=') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error(`unbalanced type arguments at offset ${open}`);
}

/** Splits the top-level, comma-separated type arguments of `<…>` (without the brackets). */
function splitArgs(inner) {
  const args = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
    else if ((c === '>' && inner[i - 1] !== '=') || c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      args.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(inner.slice(start).trim());
  return args;
}

/** Replaces every `Name<args>` (Name in `names`, as a whole word) by `rewrite(name, args)`. */
function rewriteGeneric(text, names, rewrite) {
  const re = new RegExp(`(?<![\\w$.])(${names.join('|')})\\s*<`, 'g');
  let out = '';
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const open = m.index + m[0].length - 1;
    const close = closeAngle(text, open);
    const args = splitArgs(text.slice(open + 1, close - 1));
    out += text.slice(last, m.index) + rewrite(m[1], args);
    last = close;
    re.lastIndex = close;
  }
  return out + text.slice(last);
}

/** The declaration text with every construct newer than TypeScript 5.0 that it knows rewritten. */
export function downlevel(text) {
  let t = rewriteGeneric(text, TYPED_ARRAYS, (name) => name);
  // Rewrite inner-most first by repeating until nothing changes (arguments may hold these types too).
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = rewriteGeneric(t, ITERATORS, (name, args) =>
      name === 'StringIterator' ? 'IterableIterator<string>' : `IterableIterator<${args[0]}>`,
    );
    t = rewriteGeneric(t, ['NoInfer'], (_name, args) => `(${args[0]})`);
  }
  return t.replace(/(?<![\w$.])BuiltinIteratorReturn(?![\w$])/g, 'any');
}

/** Constructs that TypeScript 5.0 cannot read and that {@link downlevel} does not rewrite. */
const UNSUPPORTED = [
  [
    /(?<![\w$.])(?:Int8|Uint8|Uint8Clamped|Int16|Uint16|Int32|Uint32|Float16|Float32|Float64|BigInt64|BigUint64)Array\s*</,
    'generic typed array',
  ],
  [/\bimport\s+defer\b/, '`import defer` (TS 5.9)'],
  [/\bwith\s*\{\s*['"]?resolution-mode/, 'import attributes `with { resolution-mode }` (TS 5.3)'],
];

function walk(dir, files) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, files);
    else if (/\.d\.[cm]?ts$/.test(name)) files.push(path);
  }
  return files;
}

function main() {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) dirs.push('dist');
  let changed = 0;
  let total = 0;
  const problems = [];
  for (const dir of dirs) {
    for (const file of walk(dir, [])) {
      total++;
      const before = readFileSync(file, 'utf8');
      const after = downlevel(before);
      if (after !== before) {
        writeFileSync(file, after);
        changed++;
      }
      for (const [re, what] of UNSUPPORTED)
        if (re.test(after)) problems.push(`${relative(process.cwd(), file)}: ${what}`);
    }
  }
  if (total === 0) {
    console.error(`downlevel-dts: no declaration files under ${dirs.join(', ')}`);
    process.exit(1);
  }
  if (problems.length > 0) {
    console.error(`downlevel-dts: declarations that TypeScript 5.0 rejects:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`downlevel-dts: ${changed} of ${total} declaration files rewritten for TypeScript >= 5.0`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
