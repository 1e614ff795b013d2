import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", "cli/index": "src/cli/index.ts", "cli/hooks/not-found": "src/cli/hooks/not-found.ts" },
  format: ["esm"],
  target: "node20",
  dts: { entry: { index: "src/index.ts" } },
  clean: true,
  sourcemap: true,
  splitting: false,
  // Dependencies (@oclif/core among them) stay external: bundling @oclif/core breaks it.
  skipNodeModulesBundle: true,
});
