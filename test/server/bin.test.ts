// The `reduck-sandbox` command as a user starts it (its bin file, with node): --help lists every
// option, a wrong one is one line and exit 2, a scripts folder it cannot seed says which file, and
// it runs from a bundle of its sources (bin/bundle.mjs).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("./bin/reduck-sandbox.mjs", import.meta.url));
const scratch = mkdtempSync(path.join(os.tmpdir(), "reduck-sandbox-bin-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function sandbox(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", HOME: scratch } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("reduck-sandbox", () => {
  it("--help lists every option, and exits 0", async () => {
    const { code, stdout } = await sandbox(["--help"]);
    expect(code).toBe(0);
    for (const option of [
      "--port N",
      "--write-env FILE",
      "--browser simulated|real",
      "--scripts DIR",
      "--site HOST=DIR",
      "--desktop DIR",
      "--run-timeout",
      "--run-memory",
      "--file-access",
      "--devices",
      "--oauth-issuer",
      "--help",
    ]) {
      expect(stdout).toContain(option);
    }
    expect((await sandbox(["-h"])).stdout).toBe(stdout);
  });

  it("runs its sources bundled into one file of plain JavaScript, built once for each version of them", async () => {
    const bundleOf = async () => {
      const code = `import(${JSON.stringify(new URL("./bin/bundle.mjs", import.meta.url).href)}).then(async (m) => console.log(await m.sandboxBundle()))`;
      return (await run(process.execPath, ["--input-type=module", "-e", code])).stdout.trim();
    };
    const bundle = await bundleOf();
    expect(bundle).toMatch(/\/\.built\/[0-9a-f]{16}\/sandbox\.mjs$/);
    expect(await bundleOf()).toBe(bundle);
    // The bundle alone is the command: it answers as the bin does.
    const { stdout } = await run(process.execPath, [fileURLToPath(bundle), "--help"]);
    expect(stdout).toBe((await sandbox(["--help"])).stdout);
  });

  it("is the package's bin", () => {
    const manifest = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
    expect(manifest.bin).toEqual({ "reduck-sandbox": "./bin/reduck-sandbox.mjs" });
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.optionalDependencies)).toEqual(["@sparticuz/chromium", "playwright-core"]);
  });

  it("an unknown option is one line on stderr and exit 2", async () => {
    const { code, stderr } = await sandbox(["--bogus"]);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/Unknown option '--bogus'.*--help lists them/);
  });

  it("--scripts: a body without its contract is refused before serving, naming the file", async () => {
    const dir = path.join(scratch, "scripts");
    const folder = path.join(dir, "@alice", "shop.example", "get_total");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "script.js"), "return {};");
    const { code, stderr, stdout } = await sandbox(["--port", "0", "--browser", "simulated", "--scripts", dir]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([
      `sandbox: --scripts: ${path.join(folder, "script.js")} has no contract: write ${path.join(folder, "contract.json")} (description, input_schema, output_schema)`,
    ]);
  });

  it("--site: a folder that does not exist is one line and exit 2, before serving", async () => {
    const missing = path.join(scratch, "saved", "nope");
    const { code, stderr, stdout } = await sandbox(["--port", "0", "--browser", "simulated", "--site", `shop.example=${missing}`]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([
      `sandbox: --site: site shop.example: the folder "${missing}" does not exist: save the pages there first (index.html and its files)`,
    ]);
  });

  it.each([
    ["shop.example", '--site needs HOST=DIR, e.g. --site shop.example=./saved/shop.example (got "shop.example")'],
    ["=./saved", '--site needs HOST=DIR, e.g. --site shop.example=./saved/shop.example (got "=./saved")'],
  ])("--site %s is a usage error naming the form", async (given, line) => {
    const { code, stderr } = await sandbox(["--site", given]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(`sandbox: ${line}`);
  });

  it("--site naming this machine is refused: the browser never reaches it", async () => {
    const { code, stderr } = await sandbox(["--port", "0", "--browser", "simulated", "--site", `localhost=${scratch}`]);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'sandbox: --site: site "localhost": the host must be a host name off this machine, such as shop.example (no scheme, port or path)',
    );
  });
});
