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
    // Dependencies, and the script runtime built from the sources here (run/isolation/.built).
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : sourceFiles(full);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

test("no file of the sandbox imports the client's source", () => {
  const files = sourceFiles(HERE);
  expect(files.length).toBeGreaterThan(50);
  const offenders = files.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(SPECIFIER)]
      .map((m) => m[1]!)
      .filter((specifier) => specifier.startsWith(".") && path.resolve(path.dirname(file), specifier).startsWith(CLIENT_SOURCE + path.sep))
      .map((specifier) => `${path.relative(HERE, file)}: ${specifier}`),
  );
  expect(offenders).toEqual([]);
});

test("no file of the sandbox imports the root's test helpers (the package stands on its own)", () => {
  const rootTests = path.resolve(HERE, "..");
  const offenders = sourceFiles(HERE).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(SPECIFIER)]
      .map((m) => m[1]!)
      .filter((specifier) => specifier.startsWith(".") && !path.resolve(path.dirname(file), specifier).startsWith(HERE + path.sep))
      .filter((specifier) => path.resolve(path.dirname(file), specifier).startsWith(rootTests + path.sep))
      .map((specifier) => `${path.relative(HERE, file)}: ${specifier}`),
  );
  expect(offenders).toEqual([]);
});
