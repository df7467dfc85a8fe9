/**
 * Unknown option keys throw: the overlay's copy of `@sieve/core`'s `checkOptionKeys` and `optionKeys`,
 * with the same contract and the same messages (`… has an unknown key 'x' (known: …)`), kept here so
 * that the overlay stays free of runtime dependencies (it is fed by any engine, Sieve or not).
 */

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Throws a `TypeError` unless `options` is `undefined`, or an object whose own enumerable keys all
 * appear in `known`. Allocates nothing when the options are good (a redraw's options are checked on
 * every redraw).
 *
 * @param where - What received the options, as the message shows it (`'new Overlay: options'`).
 */
export function checkOptionKeys(where: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where} must be an object, got ${describe(options)}`);
  }
  for (const key in options) {
    // The own-property test only for a key not known (an inherited one is not the caller's).
    if (!known.includes(key) && hasOwn.call(options, key)) {
      throw new TypeError(
        `${where} has an unknown key '${key}' (known: ${known.length > 0 ? known.join(', ') : 'none'})`,
      );
    }
  }
}

/**
 * The list of an options interface's keys, written as an object with every key of `T` set to `true`:
 * the compiler refuses the list until a key added to `T` is added here too.
 */
export function optionKeys<T>(keys: { [K in keyof T]-?: true }): readonly (keyof T & string)[] {
  return Object.keys(keys) as (keyof T & string)[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `'${value}'` : String(value);
}
