// Public API of the narrowphase module; each file here exports what it defines.
export * from './obbObb.js';
export * from './ocsi.js';
export * from './ocsiBatch.js';
export * from './ocsiConfigs.js';
export * from './variants.js';
export { ocsiWasmAvailable } from './wasm/loader.js';
