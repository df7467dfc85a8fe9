// Public API of the math module; each file here exports what it defines.
// The check* helpers of validate.ts are internal (import them from '../math/validate.js' inside core).
export * from './obb.js';
export * from './quat.js';
export { ORTHONORMAL_TOLERANCE, orthonormalityError } from './validate.js';
export * from './vec3.js';
