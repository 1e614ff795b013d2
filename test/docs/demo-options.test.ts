// `npm run demo`'s own checks: `--port N`, and building only when the build is older than its
// sources (examples/demo-options.ts), on a folder laid out as the repository is.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { demoOptions, demoShellEnv, staleBuild } from "../../examples/demo-options.js";
import { temporaryFolder } from "../support/files.js";

test("--port N is the sandbox's port; anything else is refused with the usage line", () => {
  expect(demoOptions([])).toEqual({});
  expect(demoOptions(["--port", "4010"])).toEqual({ port: 4010 });
  expect(demoOptions(["--port=4011"])).toEqual({ port: 4011 });
  for (const bad of [["--port", "x"], ["--port", "0"], ["--port", "70000"], ["--port", "-1"], ["--prot", "4010"], ["extra"]]) {
    expect(() => demoOptions(bad), bad.join(" ")).toThrow(/usage: npm run demo \[-- --port N\]/);
  }
});

test("the build is made again only when it is missing or a source changed after it", () => {
  const root = temporaryFolder("reduck-demo-build-");
  /** Writes a file and dates it, and its folders too (a folder's date moves when a file in it is added or removed). */
  const write = (file: string, at: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), "x");
    for (let part = file; part !== "."; part = path.dirname(part)) utimesSync(path.join(root, part), at, at);
  };
  const sources = 1_700_000_000;
  write("src/index.ts", sources);
  write("src/cli/commands/run.ts", sources);
  write("package.json", sources);
  expect(staleBuild(root)).toBe(`there is no ${path.join("dist", "index.js")}`);
  write("dist/index.js", sources + 10);
  write("dist/cli/index.cjs", sources + 10);
  write("oclif.manifest.json", sources + 10);
  expect(staleBuild(root)).toBeUndefined();
  write("src/cli/commands/run.ts", sources + 20);
  expect(staleBuild(root)).toBe("src changed after the build");
});

test("the demo's steps get the shell's environment less its REDUCK_ variables, but the sandbox's Chromium", () => {
  expect(
    demoShellEnv({
      PATH: "/usr/bin",
      HOME: "/home/me",
      REDUCK_MCP_URL: "https://mine.example",
      reduck_api_key: "rk_x",
      REDUCK_SANDBOX_CHROMIUM: "/opt/chromium",
    }),
  ).toEqual({ PATH: "/usr/bin", HOME: "/home/me", REDUCK_SANDBOX_CHROMIUM: "/opt/chromium" });
});
