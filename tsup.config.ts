import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The library: dependencies stay external, users install them beside us.
    entry: { index: "src/index.ts" },
    format: ["esm"],
    target: "node20",
    dts: true,
    clean: true,
    sourcemap: true,
    skipNodeModulesBundle: true,
  },
  {
    // The CLI: one bundle with @oclif/core inside, so start-up loads one file instead of
    // oclif's hundred modules. oclif's explicit discovery imports this bundle for COMMANDS.
    entry: { "cli/index": "src/cli/index.ts", "cli/hooks/not-found": "src/cli/hooks/not-found.ts" },
    format: ["esm"],
    target: "node20",
    sourcemap: true,
    splitting: false,
    noExternal: [/^@oclif\/core/],
    // oclif reads tsconfig with typescript only for uncompiled plugins; never here.
    external: ["typescript"],
    // Bundled CommonJS inside ESM still calls require() for Node built-ins.
    banner: { js: 'import { createRequire as __reduckCreateRequire } from "node:module"; const require = __reduckCreateRequire(import.meta.url);' },
  },
]);
