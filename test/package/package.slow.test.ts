/**
 * The package as a user gets it. A copy of the repository's tracked files (what a fresh clone
 * has: no dist/, no manifest) is packed with `npm pack`, whose prepack builds; the tarball is
 * then installed into an empty project, globally, and through npx, and used against the
 * sandbox over real HTTP. What the install adds (packages, size) is measured here, and the
 * figure README.md gives is held to it. Slow (it packs and installs): `npm run test:slow`.
 */
import { chmod, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { startMcp } from "../support/mcp-stdio.js";
import { temporaryFolder } from "../support/files.js";
import { copyTrackedFiles, diskUsage, installedPackages, npm, npmEnv, npxCommand, pathWithThisNode, run } from "./tools.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const { version } = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { version: string };
const MB = 1_000_000;

let work: string;
let tarball: string;
let files: string[];
let project: string;
let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;

beforeAll(async () => {
  work = temporaryFolder("reduck-package-");
  await chmod(work, 0o755);
  const clone = path.join(work, "clone");
  await copyTrackedFiles(ROOT, clone);
  await mkdir(path.join(work, "tarball"));
  await npm(["pack", "--pack-destination", path.join(work, "tarball")], { cwd: clone });
  const [name] = await readdir(path.join(work, "tarball"));
  tarball = path.join(work, "tarball", name!);
  files = (await run("tar", ["-tzf", tarball])).stdout
    .split("\n")
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ""));

  project = path.join(work, "project");
  await mkdir(project);
  await writeFile(path.join(project, "package.json"), JSON.stringify({ name: "empty-project", version: "1.0.0", private: true }));
  await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], { cwd: project });

  const desktop = path.join(work, "desktop");
  await mkdir(path.join(desktop, "reduck"), { recursive: true });
  sandbox = await startSandboxProcess(desktop);
}, 300_000);

afterAll(async () => {
  sandbox?.stop();
});

describe("npm pack on a fresh clone", () => {
  test("builds (prepack) and ships the build, the CLI entry, the manifest, the API description, README and LICENSE", () => {
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "bin/run.js",
      "bin/package.json",
      "dist/index.js",
      "dist/index.cjs",
      "dist/index.d.ts",
      "dist/index.d.cts",
      "dist/report.js",
      "dist/report.cjs",
      "dist/report.d.ts",
      "dist/report.d.cts",
      "dist/cli/index.cjs",
      "dist/cli/ajv-vendor.cjs",
      "dist/cli/mcp-vendor.cjs",
      "oclif.manifest.json",
      "openapi.json",
    ]) {
      expect(files).toContain(needed);
    }
  });

  test("ships nothing else: no tests, sources, examples or scripts", () => {
    const top = new Set(files.map((f) => f.split("/")[0]));
    expect([...top].sort()).toEqual(["LICENSE", "README.md", "bin", "dist", "oclif.manifest.json", "openapi.json", "package.json"]);
  });

  test("the LICENSE is the MIT licence package.json names", async () => {
    const license = await readFile(path.join(project, "node_modules", "reduck-client", "LICENSE"), "utf8");
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 reduck-client contributors\n/);
  });
});

describe("installed into an empty project", () => {
  test("adds at most 10 packages and 8 MB", async () => {
    const packages = await installedPackages(path.join(project, "node_modules"));
    const { disk, apparent } = await diskUsage(path.join(project, "node_modules"));
    // The figures README gives (checked below), printed for whoever updates them.
    console.log(
      `installed: ${packages.length} packages (${packages.join(", ")}), ${(disk / MB).toFixed(1)} MB on disk, ${(apparent / MB).toFixed(1)} MB of files`,
    );
    expect(packages).toContain("reduck-client");
    // Requests go over node:http: the npm undici (a second copy of Node's own) is no dependency.
    expect(packages).not.toContain("undici");
    expect(packages.length).toBeLessThanOrEqual(10);
    expect(disk).toBeLessThanOrEqual(8 * MB);
  });

  test("README.md states what the install adds: the number of packages, the size within half a MB, each dependency by name", async () => {
    const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
    const sentence = /`npm install reduck-client` adds (\d+) packages and about (\d+(?:\.\d+)?) MB:([^.]*)/.exec(readme.replace(/\s+/g, " "));
    expect(sentence, "README.md: `npm install reduck-client` adds N packages and about M MB: ...").not.toBeNull();
    const [, count, size, names] = sentence!;
    const packages = await installedPackages(path.join(project, "node_modules"));
    const { disk } = await diskUsage(path.join(project, "node_modules"));
    expect(Number(count)).toBe(packages.length);
    expect(Math.abs(Number(size) - disk / MB), `README says about ${size} MB; the install takes ${(disk / MB).toFixed(1)} MB`).toBeLessThanOrEqual(0.5);
    const { dependencies } = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    for (const name of Object.keys(dependencies)) expect(names, `README's install sentence does not name ${name}`).toContain(`\`${name}\``);
  });

  test("import and require both load the library, and it works over HTTP", async () => {
    await writeFile(
      path.join(project, "esm.mjs"),
      `import { createReduckClient, listScripts, PACKAGE_VERSION } from "reduck-client";
const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY, baseUrl: process.env.REDUCK_API_URL });
const { data, error } = await listScripts({ client, path: { handle: "reduck" }, query: { host: "mail.google.com" } });
console.log(JSON.stringify({ version: PACKAGE_VERSION, slugs: data?.map((s) => s.slug), error }));
`,
    );
    await writeFile(
      path.join(project, "cjs.cjs"),
      `const { createReduckClient, runScript, PACKAGE_VERSION } = require("reduck-client");
const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY, baseUrl: process.env.REDUCK_API_URL });
runScript({
  client,
  script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "s", attachmentName: "banner.png" },
    files: { attachment: { path: process.argv[2] } } },
}).then(({ data, error }) => console.log(JSON.stringify({ version: PACKAGE_VERSION, result: data?.result, error })));
`,
    );
    await writeFile(path.join(project, "banner.png"), Buffer.alloc(2048, 7));
    const env = { PATH: pathWithThisNode(), ...sandbox.env };
    const esm = JSON.parse((await run(process.execPath, ["esm.mjs"], { cwd: project, env })).stdout);
    expect(esm).toMatchObject({ version, slugs: expect.arrayContaining(["send_email"]) });
    expect(esm.error).toBeUndefined();
    const cjs = JSON.parse((await run(process.execPath, ["cjs.cjs", path.join(project, "banner.png")], { cwd: project, env })).stdout);
    expect(cjs).toMatchObject({ version, result: { sent: true, attachment: "banner.png" } });
  });

  test("reduck-client/report loads through import and require, and renders a page that names the run", async () => {
    const run_ = { id: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9", status: "error", script: { handle: "reduck", host: "mail.google.com", slug: "send_email" } };
    const trace = { steps: [{ action: "goto https://mail.google.com/", ok: false, duration_ms: 12, error: "<b>no</b>" }] };
    const input = JSON.stringify({ run: run_, trace });
    await writeFile(
      path.join(project, "report.mjs"),
      `import { renderTraceHtml, renderBatchReportHtml } from "reduck-client/report";
const page = renderTraceHtml(${input});
const report = renderBatchReportHtml([{ row: 1, key: "k", status: "failed", runId: "r1", error: "boom" }]);
console.log(JSON.stringify({ page: page.includes("reduck/mail.google.com/send_email") && page.includes("&lt;b&gt;no&lt;/b&gt;"), report: report.includes("boom") }));
`,
    );
    await writeFile(
      path.join(project, "report.cjs"),
      `const { renderTraceHtml } = require("reduck-client/report");
console.log(JSON.stringify({ page: renderTraceHtml(${input}).includes("Failed at") }));
`,
    );
    const env = { PATH: pathWithThisNode() };
    expect(JSON.parse((await run(process.execPath, ["report.mjs"], { cwd: project, env })).stdout)).toEqual({ page: true, report: true });
    expect(JSON.parse((await run(process.execPath, ["report.cjs"], { cwd: project, env })).stdout)).toEqual({ page: true });
  });

  test("its types are right for every resolution mode (@arethetypeswrong/cli reports no problem)", async () => {
    const attw = path.join(ROOT, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
    // attw exits non-zero on any problem, and run() then fails with its report.
    const { stdout } = await run(process.execPath, [attw, tarball, "--format", "json"]);
    expect(JSON.parse(stdout).problems).toEqual({});
  });

  test("the documented `npx -y reduck-client mcp` runs this package's bin, offline, and answers initialize", async () => {
    const mcp = startMcp(...splitCommand([...npxCommand(), "-y", "--offline", "reduck-client", "mcp"]), {
      cwd: project,
      env: npmEnv({ REDUCK_API_KEY: "rk_unused", REDUCK_API_URL: sandbox.env.REDUCK_API_URL! }),
    });
    try {
      expect(await mcp.initialize()).toMatchObject({ serverInfo: { name: "reduck", version } });
      const { tools } = await mcp.request("tools/list");
      expect(tools.map((t: { name: string }) => t.name)).toContain("run_script");
    } finally {
      expect(await mcp.close()).toBe(0);
    }
  });
});

describe("npx --package <tarball> reduck mcp, outside any project", () => {
  test("installs the tarball (not the registry's `reduck`) and answers initialize", async () => {
    const outside = path.join(work, "elsewhere");
    await mkdir(outside);
    const mcp = startMcp(...splitCommand([...npxCommand(), "--yes", "--prefer-offline", "--package", tarball, "reduck", "mcp"]), {
      cwd: outside,
      env: npmEnv({ REDUCK_API_KEY: "rk_unused", REDUCK_API_URL: sandbox.env.REDUCK_API_URL! }),
    });
    try {
      expect(await mcp.initialize()).toMatchObject({ serverInfo: { name: "reduck", version } });
    } finally {
      await mcp.close();
      await forgetNpxInstall(tarball);
    }
  });
});

describe("npm install -g --prefix DIR <tarball>", () => {
  let reduck: (args: string[]) => Promise<{ stdout: string; stderr: string }>;

  beforeAll(async () => {
    const prefix = path.join(work, "global");
    await npm(["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", tarball]);
    const bin = process.platform === "win32" ? path.join(prefix, "reduck.cmd") : path.join(prefix, "bin", "reduck");
    const home = path.join(work, "home");
    await mkdir(home, { recursive: true });
    const env = { PATH: pathWithThisNode(), HOME: home, NO_COLOR: "1", XDG_CACHE_HOME: path.join(home, ".cache"), ...sandbox.env };
    reduck = (args) => run(bin, args, { env, cwd: home, shell: process.platform === "win32" });
  }, 120_000);

  test("reduck --version names this package", async () => {
    expect((await reduck(["--version"])).stdout).toMatch(new RegExp(`^reduck-client/${version.replace(/\./g, "\\.")} `));
  });

  test("reduck scripts list reaches the sandbox", async () => {
    const { stdout } = await reduck(["scripts", "list", "reduck", "--host", "mail.google.com", "--json"]);
    expect(JSON.stringify(JSON.parse(stdout))).toContain("send_email");
  });

  test("reduck run sends a file", async () => {
    const file = path.join(work, "home", "banner.png");
    await writeFile(file, Buffer.alloc(4096, 9));
    const { stdout } = await reduck([
      "run",
      "--script",
      "reduck/mail.google.com/send_email",
      "to=me@example.com",
      "subject=Banner",
      "attachmentName=banner.png",
      `file:attachment=${file}`,
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ sent: true, attachment: "banner.png" });
  });

  test("the help and autocomplete commands are built in (no oclif plugin is installed)", async () => {
    expect((await reduck(["help", "scripts", "list"])).stdout).toContain("$ reduck scripts list");
    expect((await reduck(["autocomplete", "bash"])).stdout).toContain("reduck autocomplete script bash");
  });
});

/** ["node", "npx-cli.js", ...args] as spawn's (command, args). */
function splitCommand([command, ...args]: string[]): [string, string[]] {
  return [command!, args];
}

/** npx keeps what it installed in <cache>/_npx/<hash>: remove the entry made for our temporary tarball. */
async function forgetNpxInstall(spec: string) {
  const cache = (await npm(["config", "get", "cache"])).stdout.trim();
  const root = path.join(cache, "_npx");
  for (const entry of await readdir(root).catch(() => [])) {
    const manifest = await readFile(path.join(root, entry, "package.json"), "utf8").catch(() => "");
    if (manifest.includes(JSON.stringify(spec).slice(1, -1))) await rm(path.join(root, entry), { recursive: true, force: true });
  }
}
