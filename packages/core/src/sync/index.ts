// Public API of the engine-sync module: what engine adapters build on.
export { BodyTable, type BodyTableHooks, type BodyTableOptions, NO_PROXY } from './bodyTable.js';
export { checkSyncUpdate } from './checkSyncUpdate.js';
export { PairOrder } from './pairOrder.js';
