// Public API of the math module; each file here exports what it defines.
// The check* helpers of checks.ts are internal (import them from '../math/checks.js' inside core).

export { ORTHONORMAL_TOLERANCE, orthonormalityError } from './checks.js';
export * from './obb.js';
export * from './quat.js';
export * from './vec3.js';
