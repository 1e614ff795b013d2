/**
 * Checked-out text keeps LF under any core.autocrlf (.gitattributes): the stale-generated test
 * compares the generator's LF output byte for byte, and .ci/run must stay a runnable script.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("generated code, the API description, scripts and docs are checked out with LF", () => {
  const files = ["src/generated/operations.ts", "src/generated/schema.ts", "openapi.json", ".ci/run", "README.md", "src/cli/index.ts"];
  const out = execFileSync("git", ["-c", "core.autocrlf=true", "check-attr", "eol", "text", "--", ...files], { cwd: ROOT, encoding: "utf8" });
  for (const file of files) {
    expect(out).toContain(`${file}: eol: lf\n`);
    expect(out).not.toContain(`${file}: text: unset`);
  }
});
