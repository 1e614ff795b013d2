// The sandbox is a witness of the client, so it must not share the client's code: no file of this
// package imports from the root's src/ (the client comes in only through the published entry,
// `reduck-client`, as a user's program gets it).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLIENT_SOURCE = path.resolve(HERE, "..", "..", "src");
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    // Dependencies, and what is built from the sources here (runtime/isolation/.built, the declarations in dist/).
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".") ? [] : sourceFiles(full);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

/** The relative imports of the sandbox's files that lead outside it, into `folder`, as "file: specifier". */
function importsInto(folder: string): string[] {
  return sourceFiles(HERE).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(SPECIFIER)]
      .map((m) => m[1]!)
      .filter((specifier) => {
        const target = path.resolve(path.dirname(file), specifier);
        return specifier.startsWith(".") && !target.startsWith(HERE + path.sep) && target.startsWith(folder + path.sep);
      })
      .map((specifier) => `${path.relative(HERE, file)}: ${specifier}`),
  );
}

test("no file of the sandbox imports the client's source", () => {
  expect(sourceFiles(HERE).length).toBeGreaterThan(50);
  expect(importsInto(CLIENT_SOURCE)).toEqual([]);
});

test("no file of the sandbox imports the root's test helpers (the package stands on its own)", () => {
  expect(importsInto(path.resolve(HERE, ".."))).toEqual([]);
});
