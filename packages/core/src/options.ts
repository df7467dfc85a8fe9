/**
 * One check for every options object in the public API: an unknown key (a typo such as `stratgy` or
 * `narrowPhase`) throws a `TypeError` that names the key, where it was given and the keys that are
 * known, instead of being ignored. Called before anything is built or changed.
 */

/**
 * Throws a `TypeError` unless `options` is `undefined`, or a plain object whose own enumerable keys all
 * appear in `known`.
 *
 * @param where - What received the options, as the message shows it (`'new MeshBVH: options'`).
 * @param options - The value passed by the caller.
 * @param known - Every key the options object may have.
 *
 * @example
 * ```ts
 * import { checkOptionKeys } from '@sieve/core';
 * checkOptionKeys('makeThing: options', { size: 2 }, ['size', 'color']); // passes
 * checkOptionKeys('makeThing: options', { sise: 2 }, ['size', 'color']);
 * // TypeError: makeThing: options has an unknown key 'sise' (known: size, color)
 * ```
 */
export function checkOptionKeys(where: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where} must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(
        `${where} has an unknown key '${key}' (known: ${known.length > 0 ? known.join(', ') : 'none'})`,
      );
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `'${value}'` : String(value);
}
