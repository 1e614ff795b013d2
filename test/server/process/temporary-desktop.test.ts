// The sandbox started without --desktop (and without ~/Desktop) makes a temporary desktop and
// removes it when it stops, unless files were put in it: then it stays and the sandbox says where.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { spawnSandbox } from "./sandbox-process.js";

// A home without a Desktop folder, so the sandbox has to make its own.
const home = mkdtempSync(path.join(os.tmpdir(), "reduck-no-desktop-home-"));
const kept: string[] = [];
afterAll(() => {
  for (const folder of [...kept, home]) rmSync(folder, { recursive: true, force: true });
});

/** Starts the sandbox and resolves with the temporary desktop its start-up line names. */
async function started() {
  const sandbox = spawnSandbox(["--port", "0", "--browser", "simulated"], { env: { ...process.env, HOME: home } });
  let desktop = "";
  await vi.waitFor(
    () => {
      const named =
        /^sandbox: desktop folder (\S+) \(a temporary folder, removed when the sandbox stops unless you put files in it; --desktop DIR picks one\): /m.exec(
          sandbox.output().stderr,
        );
      if (!named) throw new Error(`the sandbox has not named its temporary desktop yet; stderr so far:\n${sandbox.output().stderr}`);
      desktop = named[1]!;
    },
    { timeout: 50_000, interval: 25 },
  );
  return { sandbox, desktop };
}

describe("the sandbox's temporary desktop", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("is removed on %s when nothing was put in it", async (signal) => {
    const { sandbox, desktop } = await started();
    expect(existsSync(path.join(desktop, "reduck"))).toBe(true);
    sandbox.child.kill(signal);
    expect(await sandbox.exited).toBe(0);
    expect(existsSync(desktop)).toBe(false);
    expect(sandbox.output().stderr).not.toContain("kept the temporary desktop");
  });

  it("is kept, and said so on stderr, when someone put files in it", async () => {
    const { sandbox, desktop } = await started();
    kept.push(desktop);
    writeFileSync(path.join(desktop, "reduck", "invoice.pdf"), "%PDF-1.4\n");
    sandbox.child.kill("SIGTERM");
    expect(await sandbox.exited).toBe(0);
    expect(existsSync(path.join(desktop, "reduck", "invoice.pdf"))).toBe(true);
    expect(sandbox.output().stderr).toContain(`sandbox: kept the temporary desktop ${desktop}: it holds files you put there (remove it when done)\n`);
  });
});
