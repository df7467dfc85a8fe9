/**
 * An esbuild plugin for the packages' builds: marks what their modules compute at load time (the
 * scratch vectors, typed arrays and tables at module scope and in static class fields) with
 * `@__PURE__` comments, the annotation bundlers read (esbuild, Rollup, Terser, webpack).
 *
 * Why: a package's build joins its modules into a few files, so a user's bundler can no longer drop
 * a module the page does not use as a whole (`sideEffects: false` works per file); it drops what is
 * unused statement by statement, and keeps any `new Float64Array(6)` it cannot prove free of effects —
 * with the classes and functions those initializers name. The sources run nothing at import time (the
 * bundle-size test checks that an import alone bundles to nothing), so every such initializer is pure
 * and the annotation is true. The sources stay as written; only the build sees the marks.
 */
import { readFile } from 'node:fs/promises';
import type { Options } from 'tsup';
import ts from 'typescript';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const PURE = '/* @__PURE__ */ ';

/** The marked text of each file read in this process (a package's ESM and CommonJS builds share it). */
const marked = new Map<string, { text: string; out: string }>();

/** The offsets in `source` where a mark goes: before each `new` and call run at load time. */
function marks(source: ts.SourceFile): number[] {
  const at: number[] = [];
  // Calls and `new` inside an initializer, but not in the functions and classes it defines (they run
  // later, if at all).
  const inside = (node: ts.Node): void => {
    if (ts.isNewExpression(node) || ts.isCallExpression(node)) at.push(node.getStart(source));
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, inside);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (d.initializer) inside(d.initializer);
    } else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic = ts
          .getModifiers(member as ts.HasModifiers)
          ?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (isStatic && ts.isPropertyDeclaration(member) && member.initializer) inside(member.initializer);
      }
    }
  }
  return at;
}

/** The plugin: the `.ts` files under `packages/<name>/src` get the marks (see the module comment). */
export function pureModuleScope(): Plugin {
  return {
    name: 'sieve-pure-module-scope',
    setup(build) {
      build.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        let entry = marked.get(args.path);
        if (entry?.text !== text) {
          const source = ts.createSourceFile(args.path, text, ts.ScriptTarget.ES2022, true);
          let out = text;
          for (const i of marks(source).sort((a, b) => b - a)) out = out.slice(0, i) + PURE + out.slice(i);
          entry = { text, out };
          marked.set(args.path, entry);
        }
        return { contents: entry.out, loader: 'ts' };
      });
    },
  };
}
