/**
 * One check for every options object in the public API: an unknown key (a typo such as `stratgy` or
 * `narrowPhase`) throws a `TypeError` that names the key, where it was given and the keys that are
 * known, instead of being ignored. Called before anything is built or changed. Allocates nothing
 * when the options are good, so per-call options (a query's) can be checked on every call.
 */

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Throws a `TypeError` unless `options` is `undefined`, or a plain object whose own enumerable keys all
 * appear in `known`.
 *
 * @param where - What received the options, as the message shows it (`'new MeshBVH: options'`).
 * @param options - The value passed by the caller.
 * @param known - Every key the options object may have (the message lists them, but `unlisted`).
 * @param unlisted - Keys of `known` the message does not name: removed options, let through so that the
 *   caller can say what replaced them.
 *
 * @example
 * ```ts
 * import { checkOptionKeys } from '@sieve/core';
 * checkOptionKeys('makeThing: options', { size: 2 }, ['size', 'color']); // passes
 * checkOptionKeys('makeThing: options', { sise: 2 }, ['size', 'color']);
 * // TypeError: makeThing: options has an unknown key 'sise' (known: size, color)
 * ```
 */
export function checkOptionKeys(
  where: string,
  options: unknown,
  known: readonly string[],
  unlisted: readonly string[] = [],
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where} must be an object, got ${describe(options)}`);
  }
  // for-in with an own-property test (the keys Object.keys lists) allocates no key array: some
  // options objects are checked on every call of a per-frame query.
  for (const key in options) {
    // The own-property test only for a key not known (an inherited one is not the caller's).
    if (!known.includes(key) && hasOwn.call(options, key)) {
      const listed = known.filter((k) => !unlisted.includes(k));
      throw new TypeError(
        `${where} has an unknown key '${key}' (known: ${listed.length > 0 ? listed.join(', ') : 'none'})`,
      );
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/**
 * The list of an options interface's keys for {@link checkOptionKeys}, written as an object with every
 * key of `T` set to `true`: the compiler then refuses the list until a key added to `T` is added here
 * too, so the check can never fall behind the interface. Returns the keys in the order written.
 *
 * @example
 * ```ts
 * import { checkOptionKeys, optionKeys } from '@sieve/core';
 *
 * interface ThingOptions { size?: number; color?: string }
 * const THING_OPTION_KEYS = optionKeys<ThingOptions>({ size: true, color: true });
 * function makeThing(options: ThingOptions = {}): void {
 *   checkOptionKeys('makeThing: options', options, THING_OPTION_KEYS); // before anything changes
 * }
 * makeThing({ size: 2 });
 * ```
 */
export function optionKeys<T>(keys: { [K in keyof T]-?: true }): readonly (keyof T & string)[] {
  return Object.keys(keys) as (keyof T & string)[];
}
