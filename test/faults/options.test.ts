import { checkOptionKeys } from '@sieve/core';
import { describe, expect, it } from 'vitest';

// Entry points are added here as their options are checked; this first case keeps the suite's wiring
// (workspace, alias, typecheck) honest.
describe('unknown option keys', () => {
  it('checkOptionKeys names the key and the known ones', () => {
    expect(() => checkOptionKeys('f: options', { typo: 1 }, ['a'])).toThrow(/unknown key 'typo' \(known: a\)/);
  });
});
