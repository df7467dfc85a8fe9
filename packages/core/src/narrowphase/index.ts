// Public API of the narrowphase module; each file here exports what it defines.
export {};
