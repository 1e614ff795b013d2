/**
 * Where some imports of the CLI's bundle go: to its vendor files, kept outside the bundle, and to
 * files of a package that its `exports` do not offer.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "esbuild";

/** The MCP SDK's modules and zod where src/mcp imports them: all in mcp-vendor.cjs (src/cli/vendor/mcp.ts). */
export const MCP_VENDOR_IMPORTS = /^(@modelcontextprotocol\/sdk\/(server\/(index|stdio|streamableHttp|zod-json-schema-compat)|types)\.js|zod)$/;

/**
 * The CLI bundle requires its vendor files (built as entries of their own, tsup.config.ts) instead
 * of bundling their packages: the MCP SDK and zod where src/mcp imports them, ajv where
 * src/cli/run/validate-args.ts does (as `../vendor/ajv.js`).
 */
export const vendorFiles: Plugin = {
  name: "vendor-files",
  setup(build) {
    build.onResolve({ filter: MCP_VENDOR_IMPORTS }, (args) =>
      /[\\/]src[\\/]mcp[\\/]/.test(args.importer) ? { path: "./mcp-vendor.cjs", external: true } : undefined,
    );
    build.onResolve({ filter: /^\.\.\/vendor\/ajv\.js$/ }, () => ({ path: "./ajv-vendor.cjs", external: true }));
  },
};

/**
 * The folder of the package `name` whose entry is `entry`: the nearest folder above it with a
 * package.json of that name.
 *
 * @example
 * packageFolder("@oclif/plugin-autocomplete", ".../node_modules/@oclif/plugin-autocomplete/lib/index.js");
 * // ".../node_modules/@oclif/plugin-autocomplete"
 */
export function packageFolder(name: string, entry: string): string {
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === name) return dir;
  }
  throw new Error(`no folder of ${name} above its entry ${entry}`);
}

/**
 * An esbuild `alias` through which imports reach files of `packages` that their `exports` leave
 * out: each name stands for its package's folder, found from the package's entry as Node resolves
 * it from `from` (a file's URL). Resolved by esbuild itself, the files stay ES modules of their
 * package, as they are for Node; a path an onResolve plugin returned would be read apart from its
 * package and lose the package's module type. oclif's plugin-autocomplete offers its commands only
 * to oclif's own loader (src/cli/shell/plugins.ts).
 *
 * @example
 * packageFolders(["@oclif/plugin-autocomplete"], import.meta.url);
 * // { "@oclif/plugin-autocomplete": ".../node_modules/@oclif/plugin-autocomplete" }
 */
export function packageFolders(packages: readonly string[], from: string): Record<string, string> {
  const require = createRequire(from);
  return Object.fromEntries(packages.map((name) => [name, packageFolder(name, require.resolve(name))]));
}
