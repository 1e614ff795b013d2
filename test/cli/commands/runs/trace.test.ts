import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { keepScreenshots } from "@reduck-client/sandbox/internal";
import { reduck, tempDir, useSandboxForCli } from "../harness.js";
import { present } from "../../../support/present.js";

const server = useSandboxForCli();

/** PNG-looking bytes: the CLI saves what the URL serves, whatever it is. */
const png = (fill: number) => Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(300, fill)]);

/** Gives the seeded failed run screenshots, kept and served as the sandbox keeps a real run's. */
async function withScreenshots(): Promise<{ runId: string; last: Buffer; failure: Buffer }> {
  const runId = SEED_IDS.runs.error;
  const last = png(1);
  const failure = png(2);
  const run = server.store.runs.get(runId)!;
  const screenshots = await keepScreenshots(server.store, "https://reduck.ai", runId, [
    { kind: "last", afterStep: 0, png: last },
    { kind: "failure", afterStep: 1, png: failure },
  ]);
  run.trace = { ...(run.trace as object), screenshots };
  return { runId, last, failure };
}

describe("runs trace", () => {
  it("prints the trace as JSON, with or without --json", async () => {
    const expected = server.store.runs.get(SEED_IDS.runs.error)!.trace;
    const plain = await reduck("runs", "trace", SEED_IDS.runs.error);
    expect(plain.exitCode).toBe(0);
    expect(plain.json()).toEqual(expected);
    const json = await reduck("runs", "trace", SEED_IDS.runs.error, "--json");
    expect(json.stdout).toBe(plain.stdout);
  });

  it("a run without a trace fails with the service's message (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("runs", "trace", SEED_IDS.runs.sendEmail);
    expect(exitCode).toBe(1);
    expect(stderr).toContain("recorded no trace");
  });
});

describe("runs trace --screenshots DIR", () => {
  it("downloads each screenshot into DIR (made if missing); the printed trace says where each landed", async () => {
    const { runId, last, failure } = await withScreenshots();
    const dir = path.join(tempDir(), "shots", "new");
    const saved = await reduck("runs", "trace", runId, "--screenshots", dir);
    expect(saved.exitCode).toBe(0);
    const trace = saved.json();
    expect(trace.screenshots).toEqual([
      expect.objectContaining({
        kind: "last",
        url: expect.stringMatching(/^https:\/\/reduck\.ai\/screenshots\/[0-9a-f-]{36}\.png$/),
        path: path.join(dir, `${runId}-last.png`),
      }),
      expect.objectContaining({ kind: "failure", path: path.join(dir, `${runId}-failure.png`) }),
    ]);
    expect(readFileSync(path.join(dir, `${runId}-last.png`))).toEqual(last);
    expect(readFileSync(path.join(dir, `${runId}-failure.png`))).toEqual(failure);
    expect(saved.stderr).toContain(`Saved ${path.join(dir, `${runId}-last.png`)}`);
  });

  it("never writes over an existing file: the next one gets a number", async () => {
    const { runId, last } = await withScreenshots();
    const dir = tempDir();
    writeFileSync(path.join(dir, `${runId}-last.png`), "mine");
    const saved = await reduck("runs", "trace", runId, "--screenshots", dir);
    expect(saved.exitCode).toBe(0);
    expect(readFileSync(path.join(dir, `${runId}-last.png`), "utf8")).toBe("mine");
    expect(readFileSync(path.join(dir, `${runId}-last (1).png`))).toEqual(last);
    expect(saved.json().screenshots[0].path).toBe(path.join(dir, `${runId}-last (1).png`));
  });

  it("a trace without screenshots saves nothing and says so; a file in DIR's place is refused before anything is read (exit 2)", async () => {
    const dir = tempDir();
    const none = await reduck("runs", "trace", SEED_IDS.runs.error, "--screenshots", dir);
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toContain(`Run ${SEED_IDS.runs.error} recorded no screenshot: nothing was saved.`);
    // The service is not on this machine: no word about the sandbox's simulated page.
    expect(none.stderr).not.toContain("simulated");
    expect(readdirSync(dir)).toEqual([]);

    const file = path.join(dir, "not-a-folder");
    writeFileSync(file, "x");
    const refused = await reduck("runs", "trace", SEED_IDS.runs.error, "--screenshots", file);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`--screenshots ${file}: it is a file, not a folder`);
  });

  it("a screenshot that is gone is reported (exit 1); the trace still prints", async () => {
    const { runId } = await withScreenshots();
    const run = server.store.runs.get(runId)!;
    const trace = run.trace as { screenshots: Array<{ url: string }> };
    present(trace.screenshots[0], "a screenshot in the trace").url = "https://reduck.ai/screenshots/00000000-0000-4000-8000-000000000000.png";
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const saved = await reduck("runs", "trace", runId, "--screenshots", dir);
    expect(saved.exitCode).toBe(1);
    expect(saved.stderr).toContain(
      "Error: the last screenshot was not saved (https://reduck.ai answered 404): https://reduck.ai/screenshots/00000000-0000-4000-8000-000000000000.png",
    );
    expect(saved.json().screenshots[1].path).toBe(path.join(dir, `${runId}-failure.png`));
  });
});
