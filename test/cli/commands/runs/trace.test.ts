import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { HttpResponse, http as route } from "msw";
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { keepScreenshots } from "@reduck-client/sandbox/internal";
import { API_URL, reduck, tempDir, useSandboxForCli } from "../harness.js";
import { present } from "../../../support/present.js";
import { PARTIAL_NAMES, partialNames } from "../../../../src/cli/run/pages.js";

const server = useSandboxForCli();

/** PNG-looking bytes: the CLI saves what the URL serves, whatever it is. */
const png = (fill: number) => Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(300, fill)]);

/** Gives the seeded failed run screenshots, kept and served as the sandbox keeps a real run's. */
async function withScreenshots(): Promise<{ runId: string; last: Buffer; failure: Buffer }> {
  const runId = SEED_IDS.runs.error;
  const last = png(1);
  const failure = png(2);
  const run = server.store.runs.get(runId)!;
  const screenshots = await keepScreenshots(server.store, API_URL, runId, [
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
        url: expect.stringMatching(new RegExp(`^${API_URL.replaceAll(".", "\\.")}/screenshots/[0-9a-f-]{36}\\.png$`)),
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
    present(trace.screenshots[0], "a screenshot in the trace").url = `${API_URL}/screenshots/00000000-0000-4000-8000-000000000000.png`;
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const saved = await reduck("runs", "trace", runId, "--screenshots", dir);
    expect(saved.exitCode).toBe(1);
    expect(saved.stderr).toContain(
      `Error: the last screenshot was not saved (${API_URL} answered 404): ${API_URL}/screenshots/00000000-0000-4000-8000-000000000000.png`,
    );
    expect(saved.json().screenshots[1].path).toBe(path.join(dir, `${runId}-failure.png`));
  });
});

describe("runs trace --screenshots DIR keeps only images, named by what they are", () => {
  it("an SVG and an HTML page served as image/png are left out, saying why; a JPEG served as image/png is saved as .jpg", async () => {
    const runId = SEED_IDS.runs.error;
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 5)]);
    const asPng = (body: string | Buffer) => () => new HttpResponse(body, { headers: { "content-type": "image/png" } });
    server.use(
      route.get("https://shots.example/svg.png", asPng('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')),
      route.get("https://shots.example/page.png", asPng("<!doctype html><html><body>Sign in</body></html>")),
      route.get("https://shots.example/photo.png", asPng(jpeg)),
    );
    const run = server.store.runs.get(runId)!;
    run.trace = {
      ...(run.trace as object),
      screenshots: [
        { kind: "svg", afterStep: 0, url: "https://shots.example/svg.png" },
        { kind: "html", afterStep: 0, url: "https://shots.example/page.png" },
        { kind: "last", afterStep: 1, url: "https://shots.example/photo.png" },
      ],
    };
    const dir = tempDir();
    const saved = await reduck("runs", "trace", runId, "--screenshots", dir);
    expect(saved.exitCode).toBe(1);
    expect(readdirSync(dir)).toEqual([`${runId}-last.jpg`]);
    expect(readFileSync(path.join(dir, `${runId}-last.jpg`))).toEqual(jpeg);
    expect(saved.stderr).toContain(
      "Error: the svg screenshot was not saved (what https://shots.example sent is not a PNG, JPEG, GIF or WebP image): https://shots.example/svg.png",
    );
    expect(saved.stderr).toContain(
      "Error: the html screenshot was not saved (what https://shots.example sent is not a PNG, JPEG, GIF or WebP image): https://shots.example/page.png",
    );
    expect(saved.json().screenshots.map((s: { path?: string }) => s.path)).toEqual([undefined, undefined, path.join(dir, `${runId}-last.jpg`)]);
  });
});

describe("a page is written through a file of its own, never through a link planted in the folder", () => {
  it("a symlink at every .partial name the page could use: none is followed, the page is refused in one line (exit 2)", async () => {
    const dir = tempDir();
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "keep me");
    const page = path.join(dir, "run.html");
    // The command runs in this process, so its .partial names are this process's.
    const names = partialNames(page, process.pid);
    expect(names).toHaveLength(PARTIAL_NAMES);
    for (const name of names) symlinkSync(victim, name);
    const written = await reduck("runs", "trace", SEED_IDS.runs.error, "--html", page);
    expect(written.exitCode).toBe(2);
    expect(written.stderr).toMatch(/^Error: .*run\.html: every name for its temporary copy \(run\.html\.\d+\.partial and 9 more\) is taken in /);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(existsSync(page)).toBe(false);
    for (const name of names) expect(lstatSync(name).isSymbolicLink()).toBe(true);
  });

  it("a symlink at the first .partial name: the next name is used, the link is left alone, and the page is a file of its own", async () => {
    const dir = tempDir();
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "keep me");
    const page = path.join(dir, "run.html");
    symlinkSync(victim, partialNames(page, process.pid)[0]!);
    const written = await reduck("runs", "trace", SEED_IDS.runs.error, "--html", page);
    expect(written.exitCode).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(lstatSync(page).isFile()).toBe(true);
    expect(readFileSync(page, "utf8")).toMatch(/^<!DOCTYPE html>/);
  });
});

describe("JSON from the service, printed with its C1 controls and bidi overrides escaped", () => {
  /** CSI (U+009B, a terminal's command introducer), NEL, a bidi override and isolate, the line separator. */
  const HOSTILE = "\u009b2J\u0085\u202e\u2066\u2028";
  const RAW = /[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it("runs trace, runs get --json and runs list --json: the bytes hold none raw, the parsed value is what the service sent", async () => {
    const run = server.store.runs.get(SEED_IDS.runs.error)!;
    run.trace = { steps: [{ index: 0, action: `goto ${HOSTILE}`, ok: false, duration_ms: 1, error: `gone${HOSTILE}` }], [`key${HOSTILE}`]: HOSTILE };
    run.args = { url: `https://example.com/${HOSTILE}` };
    const trace = await reduck("runs", "trace", SEED_IDS.runs.error);
    expect(trace.stdout).not.toMatch(RAW);
    expect(trace.stdout).toContain("\\u009b2J\\u0085\\u202e\\u2066\\u2028");
    expect(trace.json()).toEqual(run.trace);
    for (const args of [
      ["runs", "get", SEED_IDS.runs.error, "--json"],
      ["runs", "list", "--json"],
    ]) {
      const out = await reduck(...args);
      expect(out.exitCode).toBe(0);
      expect(out.stdout).not.toMatch(RAW);
      expect(JSON.stringify(out.json())).toContain(`https://example.com/${HOSTILE}`);
    }
  });
});
