/**
 * Where some imports of the CLI's bundle go: to its vendor files, kept outside the bundle.
 */
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
