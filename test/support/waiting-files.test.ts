// The list vitest.config.ts orders the fast suite by names files of the fast suite that exist: a
// file renamed or made slow would drop out of the list silently, and the run end with it again.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { WAITING_EARLY } from "./waiting-files.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

test("every file started early is a fast test file that exists", () => {
  expect(WAITING_EARLY.length).toBeGreaterThan(0);
  for (const file of WAITING_EARLY) {
    expect(existsSync(path.join(root, file)), file).toBe(true);
    expect(file, file).toMatch(/^test\/.*(?<!\.slow)\.test\.ts$/);
  }
});
