/**
 * Named files are opened race-free inside the reduck folder: by the agent tool (which uploads
 * them for a managed browser) and by the sandbox (which reads them as the browser).
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { link, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient } from "../../src/index.js";
import { openInsideFolder } from "../../src/run/inside-folder.js";
import { runScriptTool } from "../../src/mcp/tools/run-script.js";
import { readNamedFile } from "@reduck-client/sandbox/internal";
import { makeDesktop, temporaryFolder } from "../support/files.js";
import { startScriptedServer } from "../support/scripted-server.js";

const SECRET = "OUTSIDE-SECRET-".repeat(64);
let desktop: string;
let folder: string;
let outside: string;

beforeAll(async () => {
  desktop = await makeDesktop({ "plain.txt": "plain", "2026/invoice.pdf": "%PDF", "..dots.txt": "dots" });
  folder = path.join(desktop, "reduck");
  const elsewhere = temporaryFolder("reduck-outside-");
  outside = path.join(elsewhere, "secret.txt");
  await writeFile(outside, SECRET);
  await symlink(outside, path.join(folder, "out.txt"));
  await symlink(elsewhere, path.join(folder, "out-dir"));
  await symlink(path.join(folder, "plain.txt"), path.join(folder, "in.txt"));
  await symlink(path.join(elsewhere, "not-yet.txt"), path.join(folder, "dangling.txt"));
  await symlink(path.join(elsewhere, "no-dir"), path.join(folder, "dangling-dir"));
  await link(outside, path.join(folder, "hard.txt"));
  if (process.platform !== "win32") execFileSync("mkfifo", [path.join(folder, "fifo")]);
});

describe("openInsideFolder", () => {
  test.each([
    ["plain.txt", 5],
    ["2026/invoice.pdf", 4],
    ["in.txt", 5],
    ["..dots.txt", 4],
  ])("opens %j", async (name, size) => {
    const opened = await openInsideFolder(folder, name);
    expect(opened).toMatchObject({ ok: true, size });
    if (opened.ok) await opened.handle.close();
  });

  test.each([
    ["out.txt", "outside", "leads outside the reduck folder"],
    ["out-dir/secret.txt", "outside", "leads outside the reduck folder"],
    ["dangling.txt", "outside", "symbolic link to nothing"],
    ["dangling-dir/x.txt", "outside", "symbolic link to nothing"],
    ["hard.txt", "unusable", "2 hard links"],
    ["2026", "unusable", "not a regular file"],
    ["missing.txt", "missing", "no such file"],
    ["2026/missing/x.txt", "missing", "no such file"],
    ["../secret.txt", "name", "must be a plain name inside the reduck folder"],
  ])("refuses %j (%s)", async (name, reason, problem) => {
    const opened = await openInsideFolder(folder, name);
    expect(opened).toMatchObject({ ok: false, reason });
    expect(!opened.ok && opened.problem).toContain(problem);
  });

  test.skipIf(process.platform === "win32")("a FIFO is refused without hanging", async () => {
    expect(await openInsideFolder(folder, "fifo")).toMatchObject({ ok: false, reason: "unusable", problem: "it is not a regular file" });
  });
});

/**
 * A loop in another process swapping `race.txt` between a regular file and a symbolic link to
 * a file outside, as fast as it can, while the reader under test is called again and again:
 * at least 200 times, and until both outcomes (read, refused) have been seen, so the swaps
 * really happened during the calls.
 */
describe("a name swapped for a link to outside while it is read", () => {
  let swapper: ChildProcess;
  beforeAll(async () => {
    const loop = `
      const fs = require("node:fs");
      const [dir, outside] = process.argv.slice(1);
      for (let i = 0; ; i++) {
        const tmp = dir + "/.swap-" + (i % 2);
        fs.rmSync(tmp, { force: true });
        if (i % 2) fs.symlinkSync(outside, tmp);
        else fs.writeFileSync(tmp, "inside bytes");
        fs.renameSync(tmp, dir + "/race.txt");
        if (i === 1) process.stdout.write("swapping\\n");
      }`;
    swapper = spawn(process.execPath, ["-e", loop, folder, outside], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve) => swapper.stdout!.once("data", resolve));
  });
  afterAll(() => {
    swapper.kill();
  });

  async function raceCalls(call: () => Promise<"read" | "refused">) {
    const seen = { read: 0, refused: 0 };
    while (seen.read + seen.refused < 200 || !seen.read || !seen.refused) {
      seen[await call()]++;
      if (seen.read + seen.refused > 50_000) throw new Error(`the swaps never showed: ${JSON.stringify(seen)}`);
    }
    return seen;
  }

  test("the agent tool never uploads a byte of the outside file (managed browser)", async () => {
    const server = await startScriptedServer([{ body: '{"result":{"ok":true},"runId":"00000000-0000-4000-8001-0000000000a0"}' }]);
    try {
      const client = createReduckClient({ apiKey: "k", baseUrl: server.url, maxRetries: 0 });
      const refusals = new Set<string>();
      await raceCalls(async () => {
        const result = await runScriptTool.run(
          { client, folder },
          { script: { host: "a.com", slug: "s", files: { attachment: { relativePath: "race.txt" } } }, browser: "managed" },
        );
        if (!result.isError) return "read";
        refusals.add((result.content[0] as { text: string }).text.replace(/\/tmp\/\S+/g, "<path>"));
        return "refused";
      });
      for (const request of server.seen) {
        expect(request.body).not.toContain("OUTSIDE-SECRET");
        expect(request.body).toContain("inside bytes");
      }
      for (const message of refusals) expect(message).toMatch(/leads outside|changed while it was being opened|could not read race\.txt/);
    } finally {
      await server.close();
    }
  });

  test("the sandbox never reads a byte of the outside file", async () => {
    await raceCalls(async () => {
      const result = await readNamedFile(desktop, "race.txt");
      if (!("file" in result)) return "refused";
      expect(result.file.size).toBe("inside bytes".length);
      expect(result.file.sha256).toBe(createHash("sha256").update("inside bytes").digest("hex"));
      return "read";
    });
  });
});

test("a symbolic link inside a sub-folder that leads out is refused by the agent tool before any request", async () => {
  await mkdir(path.join(folder, "sub"), { recursive: true });
  await symlink(outside, path.join(folder, "sub", "link.txt"));
  const client = createReduckClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9", maxRetries: 0 });
  const result = await runScriptTool.run(
    { client, folder },
    { script: { host: "a.com", slug: "s", files: { attachment: { relativePath: "sub/link.txt" } } }, browser: "managed" },
  );
  expect(result).toMatchObject({ isError: true });
  expect((result.content[0] as { text: string }).text).toContain("must be a plain name inside the reduck folder");
});
