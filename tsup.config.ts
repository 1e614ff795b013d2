import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The library: its few `dependencies` stay external, installed beside us. Two builds, so
    // `import` gets ESM and `require` gets CommonJS on any Node 20 (each with its own types).
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    target: "node20",
    dts: true,
    // dist/cli/ is the other build's, which runs at the same time.
    clean: ["!cli/**"],
    sourcemap: true,
    // import.meta.url (the package's own version) in the CommonJS build.
    shims: true,
  },
  {
    // The CLI and the agent tool: their third-party code (oclif, the MCP SDK, zod: all
    // devDependencies) is bundled here, so installing the library does not install them.
    // Only the library's `dependencies` stay external. Start-up loads one file instead of
    // oclif's hundred modules; `reduck mcp` loads its own chunk (splitting), so other
    // commands never parse the MCP SDK. oclif's explicit discovery imports this bundle.
    entry: { index: "src/cli/index.ts", "hooks/not-found": "src/cli/hooks/not-found.ts" },
    outDir: "dist/cli",
    clean: true,
    format: ["esm"],
    target: "node20",
    splitting: true,
    // Neither minified nor mapped: minifying saved no start-up time (measured), and an
    // unminified bundle keeps REDUCK_DEBUG's stack traces readable without 3 MB of maps.
    sourcemap: false,
    // oclif reads tsconfig with typescript only for uncompiled plugins; never here.
    external: ["typescript"],
    // Bundled CommonJS inside ESM still calls require() for Node built-ins.
    banner: { js: 'import { createRequire as __reduckCreateRequire } from "node:module"; const require = __reduckCreateRequire(import.meta.url);' },
  },
]);
