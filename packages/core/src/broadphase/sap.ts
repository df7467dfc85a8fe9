/** The sweep and prune, by its former path: re-exports `./sap/index.ts`. */
export * from './sap/index.js';
