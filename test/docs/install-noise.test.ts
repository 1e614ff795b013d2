/**
 * Noise and litter on a fresh clone: `npm pack`'s tarball is ignored by git, and `npm install`
 * has no install script of our dependencies left to warn about (npm 11's allowScripts: esbuild's
 * postinstall is allowed, msw's, which only copies its browser worker into a web app, is denied).
 * A real `npm install` in a scratch clone printed no install-scripts warning with this package.json
 * (see the commit); this test asks npm itself, read-only, which is fast enough for every run.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));

test("the tarball npm pack makes is ignored by git", async () => {
  const { stdout } = await run("git", ["check-ignore", "-v", "reduck-client-0.1.0.tgz", "reduck-client-12.3.4.tgz"], { cwd: root });
  expect(stdout.trim().split("\n")).toHaveLength(2);
  expect(stdout).toMatch(/\.gitignore:\d+:\*\.tgz/);
});

test("npm finds no dependency with install scripts that package.json's allowScripts does not cover", async () => {
  const { stdout } = await run("npm", ["install-scripts", "ls"], { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
  expect(stdout).toMatch(/No packages with unreviewed install scripts/);
}, 30_000);

test("npm run build writes the oclif manifest with oclif's update notice turned off", async () => {
  const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
  expect(pkg.scripts.build).toBe("tsup && node scripts/manifest.mjs");
  const script = await readFile(path.join(root, "scripts", "manifest.mjs"), "utf8");
  expect(script).toMatch(/OCLIF_SKIP_NEW_VERSION_CHECK(: | = )"true"/);
  // The switch is the one the notice's plugin, as installed, reads (`<BIN>_SKIP_NEW_VERSION_CHECK`, oclif's bin being "oclif").
  const hook = await readFile(path.join(root, "node_modules", "@oclif", "plugin-warn-if-update-available", "lib", "hooks", "init", "check-update.js"), "utf8");
  expect(hook).toContain("scopedEnvVarTrue('SKIP_NEW_VERSION_CHECK')");
  expect(JSON.parse(await readFile(path.join(root, "node_modules", "oclif", "package.json"), "utf8")).oclif.bin).toBe("oclif");
});
