/**
 * `npm run demo` talks to its own sandbox only, whatever REDUCK_ variables the shell holds: a run
 * host, an API URL and key, a desktop, a config folder, a timeout, all pointing elsewhere. The
 * demo runs whole (its sandbox, headless Chromium, the library programs and the CLI) from a
 * folder laid out as a clone is: its examples/, and the suite's build as bin/ and dist/ (so the
 * demo builds nothing and the work tree is not touched), with node_modules beside them.
 */
import { spawn } from "node:child_process";
import { cpSync, readdirSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { BUILD_ROOT } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A clone-shaped folder: examples/ copied (the demo finds its root from its own file), the build linked in. */
function demoClone(): string {
  const clone = temporaryFolder("reduck-demo-clone-");
  cpSync(path.join(ROOT, "examples"), path.join(clone, "examples"), { recursive: true });
  for (const built of ["bin", "dist", "oclif.manifest.json", "openapi.json", "package.json"]) {
    symlinkSync(path.join(BUILD_ROOT, built), path.join(clone, built));
  }
  // node_modules as the repository's, except that `reduck-client` is the build (in the work tree it is the work tree).
  const modules = path.join(clone, "node_modules");
  mkdirSync(modules);
  for (const name of readdirSync(path.join(ROOT, "node_modules"))) {
    if (name === "reduck-client" || name === ".cache") continue;
    symlinkSync(path.join(ROOT, "node_modules", name), path.join(modules, name));
  }
  symlinkSync(BUILD_ROOT, path.join(modules, "reduck-client"));
  return clone;
}

test("the demo's steps reach its own sandbox with hostile REDUCK_ variables in the shell", { timeout: 300_000 }, async () => {
  const clone = demoClone();
  const elsewhere = temporaryFolder("reduck-demo-elsewhere-");
  // A config folder of the user's own, holding a key and a URL of its own.
  writeFileSync(path.join(elsewhere, "config.json"), JSON.stringify({ apiKey: "rk_users_own_key", apiUrl: "http://127.0.0.1:9" }));
  const hostile = {
    REDUCK_MCP_URL: "http://127.0.0.1:9",
    REDUCK_API_URL: "http://127.0.0.1:9",
    REDUCK_API_KEY: "rk_not_the_sandbox_key",
    REDUCK_DESKTOP: path.join(elsewhere, "no-desktop"),
    REDUCK_CONFIG_DIR: elsewhere,
    REDUCK_FOLDER: path.join(elsewhere, "no-folder"),
    REDUCK_FLOCK_URL: "http://127.0.0.1:9",
    REDUCK_TIMEOUT_MS: "1",
    REDUCK_ALLOW_INSECURE_HTTP: "0",
    REDUCK_SANDBOX_API_KEY: "not a key",
  };
  const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, path.join(clone, "examples", "demo.ts")], {
    cwd: clone,
    env: { ...process.env, NO_COLOR: "1", ...hostile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(output).toContain("The build is current");
  expect(output).toContain("Demo finished: every step worked.");
  expect(code, output).toBe(0);
  // The exports it prints name its own sandbox, never what the shell held.
  expect(output).toMatch(/^export REDUCK_API_URL=http:\/\/127\.0\.0\.1:\d+$/m);
  expect(output).not.toContain("127.0.0.1:9\n");
  expect(output).not.toContain("rk_not_the_sandbox_key");
});
