// The sandbox is a package of its own: nothing it reads at run time lies outside this folder, and
// what it carries from the repository (the service description, the example scripts, the version)
// stays the repository's.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LATEST_CLI_VERSION } from "./api/handlers/meta.js";
import { HANDWRITTEN_OPERATIONS } from "./api/handlers/types.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");

/**
 * The package's own source files (what runs when installed): no tests or their helpers (fixtures/,
 * client-checks/, the vitest config), no generated build.
 */
function sources(dir = HERE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", ".built", "dist", "example-scripts", "catalogue", "fixtures", "client-checks"].includes(entry.name) ? [] : sources(full);
    return /\.(ts|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && full !== path.join(HERE, "vitest.config.ts") ? [full] : [];
  });
}

describe("the sandbox package stands in its own folder", () => {
  it("no source reads a file above this folder", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    // A path that climbs out: new URL("../../x", import.meta.url), or "../../../package.json" from a sub-folder.
    const climbing = files.filter((file) => {
      const text = readFileSync(file, "utf8");
      return [...text.matchAll(/new URL\(\s*["'`]((?:\.\.\/)+)/g)].some((m) => {
        const depth = m[1]!.length / 3;
        return path.relative(HERE, path.resolve(path.dirname(file), "../".repeat(depth))).startsWith("..");
      });
    });
    expect(climbing.map((file) => path.relative(HERE, file))).toEqual([]);
  });

  it("carries the repository's openapi.json unchanged (npm run generate copies it)", () => {
    expect(readFileSync(path.join(HERE, "contract", "openapi.json"), "utf8")).toBe(readFileSync(path.join(ROOT, "openapi.json"), "utf8"));
  });

  it("takes its types from the description it carries, and knows which operations it serves by hand", () => {
    // Types come from contract/openapi-types.ts; only the checks that drive the client against the
    // sandbox (client-checks/, not shipped) import reduck-client.
    const imports = sources().filter((file) => /^import [^;]* from "reduck-client";/m.test(readFileSync(file, "utf8")));
    expect(imports.map((file) => path.relative(HERE, file))).toEqual([]);
    expect(readFileSync(path.join(HERE, "client-checks", "sandbox-harness.ts"), "utf8")).toMatch(/^import [^;]* from "reduck-client";/m);
    const document = JSON.parse(readFileSync(path.join(HERE, "contract", "openapi.json"), "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string; "x-reduck-handwritten"?: boolean }>>;
    };
    const handwritten = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => op && typeof op === "object" && op["x-reduck-handwritten"])
      .map((op) => op.operationId)
      .sort();
    expect(handwritten).toEqual([...HANDWRITTEN_OPERATIONS]);
  });

  it("is the example scripts' home: the repository's examples/scripts is a link to it", () => {
    expect(realpathSync(path.join(ROOT, "examples", "scripts"))).toBe(realpathSync(path.join(HERE, "store", "example-scripts")));
  });

  it("reports reduck-client's version as the latest CLI, and is released with it", () => {
    const root = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(LATEST_CLI_VERSION).toBe(root.version);
  });

  it("packs every file a packed source imports by a relative path (what npm pack lists, read with --dry-run)", () => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const listed = JSON.parse(execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: HERE, encoding: "utf8" })) as Array<{
      files: Array<{ path: string }>;
    }>;
    const packed = new Set(listed[0]!.files.map((file) => file.path));
    expect(packed.has("entry.mjs") && packed.has("index.ts")).toBe(true);
    const missing = [...packed]
      .filter((file) => /\.(ts|mjs)$/.test(file))
      .flatMap((file) =>
        [...readFileSync(path.join(HERE, file), "utf8").matchAll(/(?:\bfrom\s+|^\s*import\s+|\bimport\(\s*)["'](\.{1,2}\/[^"']+)["']/gm)]
          .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)))
          // A declaration (dist/, when packed before) imports declarations; a source, sources.
          .map((target) =>
            target.endsWith(".js") && !existsSync(path.join(HERE, target)) ? target.replace(/\.js$/, file.endsWith(".d.ts") ? ".d.ts" : ".ts") : target,
          )
          .filter((target) => !packed.has(target) && !packed.has(`${target}.ts`) && !packed.has(`${target}/index.ts`))
          .map((target) => `${file} -> ${target}`),
      );
    expect(missing).toEqual([]);
  });
});
