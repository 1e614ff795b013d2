/**
 * Node built-ins that third-party code `require`s at start-up but calls only for a feature a
 * command may never use (oclif: `child_process` for a Windows shell, `readline` for flags read
 * from stdin, `perf_hooks` for its own timing, off unless asked): in the CLI's bundle each is
 * loaded on its first use instead (child_process cost 1.7 ms, measured). Our own code imports
 * what it needs where it needs it, so only `require` calls from node_modules are taken.
 */
import type { Plugin } from "esbuild";

export const LAZY_BUILTINS = ["child_process", "readline", "perf_hooks"] as const;

/** What `require("node:<name>")` becomes: a stand-in that loads the module on first use and then answers as it. */
export function lazyModule(name: string): string {
  return `let real;
const load = () => (real ??= require(${JSON.stringify(`node:${name}`)}));
module.exports = new Proxy({}, {
  get: (_, key) => (key === "__esModule" ? undefined : load()[key]),
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(load(), key);
    return d && { ...d, configurable: true };
  },
});`;
}

export const lazyBuiltins: Plugin = {
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(node:)?(${LAZY_BUILTINS.join("|")})$`) }, (args) =>
      args.kind === "require-call" && /[\\/]node_modules[\\/]/.test(args.importer)
        ? { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({ loader: "js", contents: lazyModule(args.path) }));
  },
};
