// Public API of the math module; each file here exports what it defines.
export {};
