import { describe, expect, it } from 'vitest';
import { checkOptionKeys } from '../../src/options.js';

describe('checkOptionKeys', () => {
  it('accepts undefined and objects with known keys only', () => {
    expect(() => checkOptionKeys('f: options', undefined, ['a'])).not.toThrow();
    expect(() => checkOptionKeys('f: options', {}, ['a'])).not.toThrow();
    expect(() => checkOptionKeys('f: options', { a: 1 }, ['a', 'b'])).not.toThrow();
  });
  it('names the unknown key, the receiver and the known keys', () => {
    expect(() => checkOptionKeys('f: options', { a: 1, c: 2 }, ['a', 'b'])).toThrow(
      new TypeError("f: options has an unknown key 'c' (known: a, b)"),
    );
  });
  it('refuses values that are not plain option objects', () => {
    for (const bad of [null, 3, 'x', [1]]) {
      expect(() => checkOptionKeys('f: options', bad, ['a'])).toThrow(TypeError);
    }
  });
});
