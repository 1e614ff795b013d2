/**
 * Packages our own code uses only on some paths, whose top level is costly: in the CLI's bundle
 * each runs on its first use instead of when the file that imports it loads. string-width builds
 * Unicode-property regular expressions (`\p{RGI_Emoji}` with the `v` flag) as it loads, which
 * `reduck scripts list --json` paid on every start for tables it never prints (measured: about a
 * fifth of that command's time).
 */
import path from "node:path";
import type { Plugin } from "esbuild";

/** Each package, and the one export (its default, a function) that src/ imports from it. */
export const LAZY_PACKAGES = ["string-width"] as const;

/** What `import x from "<name>"` becomes: a function that loads the package on its first call, then calls it. */
export function lazyPackage(name: string): string {
  return `let real;
export default function lazy(...args) {
  return (real ??= require(${JSON.stringify(name)}).default)(...args);
}`;
}

export const lazyPackages: Plugin = {
  name: "lazy-packages",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${LAZY_PACKAGES.join("|")})$`) }, (args) =>
      args.kind === "import-statement" && /[\\/]src[\\/]/.test(args.importer)
        ? { path: args.path, namespace: "lazy-package", pluginData: { resolveDir: path.dirname(args.importer) } }
        : undefined,
    );
    // esbuild bundles the `require` of an ES module as that module run on first use.
    build.onLoad({ filter: /.*/, namespace: "lazy-package" }, (args) => ({
      loader: "js",
      contents: lazyPackage(args.path),
      resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
    }));
  },
};
