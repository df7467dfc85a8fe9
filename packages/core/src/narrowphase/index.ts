// Public API of the narrowphase module; each file here exports what it defines. The OCSI paper's
// reference variants and its benchmark's configuration generator live in bench/ocsi/.
export * from './obbObb.js';
export * from './ocsi.js';
export * from './ocsiBatch.js';
export { ocsiWasmAvailable } from './wasm/loader.js';
