// Public API of the bvh module; each file here exports what it defines.
export {};
