// The lists the suites are ordered by name test files that exist, each of its own suite: a file
// renamed or moved between suites would drop out silently, and wait alone again.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { WAITING_BESIDE, WAITING_EARLY } from "./waiting-files.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

test.each([
  ["fast", WAITING_EARLY, /^test\/.*(?<!\.slow)\.test\.ts$/],
  ["slow", WAITING_BESIDE, /^test\/.*\.slow\.test\.ts$/],
] as const)("every waiting file named for the %s suite is a test file of it that exists", (_suite, files, name) => {
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    expect(existsSync(path.join(root, file)), file).toBe(true);
    expect(file, file).toMatch(name);
  }
});
