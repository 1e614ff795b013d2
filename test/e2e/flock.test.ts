/**
 * `reduck flock` from the built CLI against the sandbox over loopback: a folder deployed and its
 * files served back byte for byte; a deploy killed in the middle of its uploads and run again
 * (one release, no file sent twice); folders the service would refuse, refused before anything
 * is sent; an account without early access; install, releases, rollback, secrets and open.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, symlink, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { openTerminal } from "./terminal.js";
import { sha256 } from "../support/files.js";
import { useCliSandbox } from "../support/sandbox.js";

/** The service's words to an account without early access to hosted apps. */
const EARLY_ACCESS_WORDS = "Request early access at https://form.reduck.ai or contact Reduck at contact@reduck.ai";

const sandbox = useCliSandbox({ home: "reduck-flock-" });

/** An app folder: a manifest naming its slug, the files given (name -> bytes), and the body files. */
async function appFolder(slug: string, files: Record<string, Uint8Array>): Promise<string> {
  const dir = path.join(sandbox.home, slug);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "manifest.json"), JSON.stringify({ slug, name: `App ${slug}`, scripts: ["reduck/mail.google.com/send_email"] }));
  await writeFile(path.join(dir, "config.json"), JSON.stringify({ brand: { domain: "example.com" } }));
  await writeFile(path.join(dir, ".api-keys.json"), JSON.stringify({ "api.notion.com": { Authorization: "Bearer ${NOTION_TOKEN}" } }));
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), bytes);
  }
  return dir;
}

/** What the sandbox logged since `from`: the PUTs to upload URLs, by the file each was for. */
function uploadsSince(from: number): string[] {
  return sandbox.store.requestLog
    .slice(from)
    .filter((r) => r.method === "PUT" && r.path.startsWith("/__sandbox/uploads/"))
    .map((r) => sandbox.store.uploadTickets.get(r.path.slice("/__sandbox/uploads/".length))!.name);
}

function imageOf(slug: string) {
  return [...sandbox.store.appImages.values()].find((i) => i.slug === slug);
}

/** GETs a release's file from the sandbox, as its owner. */
function fetchReleaseFile(slug: string, release: number, name: string): Promise<Response> {
  return fetch(`${sandbox.server.url}/__sandbox/releases/@demo/${slug}/${release}/${name}`, { headers: { "x-api-key": sandbox.store.demo.apiKey } });
}

/** What the sandbox serves for a release's file. */
async function served(slug: string, release: number, name: string): Promise<Uint8Array> {
  const response = await fetchReleaseFile(slug, release, name);
  expect(response.status, name).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

describe("flock deploy", () => {
  test("publishes a folder: the served bytes are the files on disk; flock.json names the image and the release", async () => {
    const files: Record<string, Uint8Array> = {
      "front.jsx": new TextEncoder().encode("export default () => <h1>Hi</h1>;\n"),
      "migrations/001-initial.sql": new TextEncoder().encode("CREATE TABLE answers (id INTEGER PRIMARY KEY, text TEXT);\n"),
      "assets/empty.txt": new Uint8Array(0),
      "assets/logo.png": randomBytes(70_000),
      "assets/data.bin": randomBytes(3 * 1024 * 1024 + 17),
    };
    const dir = await appFolder("survey", files);
    const from = sandbox.store.requestLog.length;
    const r = await runCli(["flock", "deploy", dir], { env: sandbox.env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Published release 1 of @demo/survey.\n");

    const image = imageOf("survey")!;
    expect(image.currentRelease).toBe(1);
    const release = image.releases.find((x) => x.number === 1)!;
    expect(release.publishedAt).not.toBeNull();
    // Served: every file but those read into the body; what the service reads went in the body.
    expect(release.assets.map((a) => a.name).sort()).toEqual(Object.keys(files).sort());
    expect(release.configDefaults).toEqual({ brand: { domain: "example.com" } });
    expect(release.apiGrant).toEqual({ "api.notion.com": { Authorization: "Bearer ${NOTION_TOKEN}" } });
    expect(release.manifest.scripts).toEqual(["reduck/mail.google.com/send_email"]);
    expect(release.migrations).toEqual([{ name: "001-initial.sql", sha: sha256(files["migrations/001-initial.sql"]!) }]);
    for (const [name, bytes] of Object.entries(files)) expect(sha256(await served("survey", 1, name)), name).toBe(sha256(bytes));
    expect(uploadsSince(from).sort()).toEqual(Object.keys(files).sort());

    expect(JSON.parse(await readFile(path.join(dir, "flock.json"), "utf8"))).toEqual({ image: { handle: "@demo", slug: "survey" }, release: 1, served: 1 });

    // Again, with --json: release 2 of the same image (flock.json names it).
    const again = await runCli(["flock", "deploy", dir, "--json"], { env: sandbox.env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ image: { handle: "@demo", slug: "survey" }, release: 2, created: false, resumed: false, uploaded: 5 });
  }, 60_000);

  test("killed in the middle of its uploads and run again: one release published, no file that had arrived sent again", async () => {
    // A tiny file first, then big ones: the first is done while the others are still going.
    const files: Record<string, Uint8Array> = { "a.txt": new TextEncoder().encode("first\n") };
    for (const n of [1, 2, 3, 4, 5, 6]) files[`big-${n}.bin`] = randomBytes(8 * 1024 * 1024 + n);
    const dir = await appFolder("resumable", files);
    const from = sandbox.store.requestLog.length;

    const t = openTerminal(["flock", "deploy", dir], { env: sandbox.env, columns: 120 });
    await t.waitFor(/release 1: [1-6]\/7 files/);
    t.kill("SIGKILL");
    const killed = await t.exited;
    expect(killed.code).not.toBe(0);
    expect(killed.output).not.toMatch(/Published/);
    const state = JSON.parse(await readFile(path.join(dir, ".flock-deploy.json"), "utf8"));
    expect(state.release).toBe(1);
    expect(state.done).toContain("a.txt");
    expect(state.done.length).toBeLessThan(7);
    const image = imageOf("resumable")!;
    expect(image.releases.map((x) => x.publishedAt)).toEqual([null]);
    const firstRun = uploadsSince(from);
    const arrivedAtKill = image.releases[0]!.assets.filter((a) => a.stored).map((a) => a.name);
    expect(arrivedAtKill).toEqual(expect.arrayContaining(state.done));
    expect(arrivedAtKill.length).toBeLessThan(7);

    const resumedFrom = sandbox.store.requestLog.length;
    const r = await runCli(["flock", "deploy", dir], { env: sandbox.env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Published release 1 of @demo/resumable (finishing the interrupted deploy).\n");

    // One release, published. The rerun sent what had not arrived, and nothing the first run had
    // recorded as done. (A file that arrived just before the kill, unrecorded, is offered again:
    // its URL answers that it already took its upload, and the file is not stored twice.)
    expect(image.releases.map((x) => x.number)).toEqual([1]);
    expect(image.releases[0]!.publishedAt).not.toBeNull();
    const secondRun = uploadsSince(resumedFrom);
    const notArrived = Object.keys(files).filter((n) => !arrivedAtKill.includes(n));
    expect(notArrived.length).toBeGreaterThan(0);
    expect(secondRun).toEqual(expect.arrayContaining(notArrived));
    for (const name of state.done) expect(secondRun).not.toContain(name);
    expect(new Set(secondRun).size).toBe(secondRun.length);
    expect(firstRun.length).toBeGreaterThan(state.done.length);
    // Every file arrived once, and is the file on disk.
    for (const [name, bytes] of Object.entries(files)) expect(sha256(await served("resumable", 1, name)), name).toBe(sha256(bytes));
    await expect(readFile(path.join(dir, ".flock-deploy.json"))).rejects.toThrow(/ENOENT/);
  }, 120_000);

  test("a file over 64 MiB, 257 files and a bad name are refused before anything is sent (exit 2)", async () => {
    const big = await appFolder("too-big", { "front.jsx": new Uint8Array(10) });
    // Sparse: 64 MiB and one byte on paper, nothing written.
    const handle = await open(path.join(big, "video.bin"), "w");
    await handle.truncate(64 * 1024 * 1024 + 1);
    await handle.close();

    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 257; i++) many[`f/${String(i).padStart(3, "0")}.txt`] = new Uint8Array(1);
    const crowded = await appFolder("crowded", many);

    const badName = await appFolder("bad-name", { "front.jsx": new Uint8Array(1), "my page.html": new Uint8Array(1) });

    const from = sandbox.store.requestLog.length;
    const cases: Array<[string, RegExp]> = [
      [big, /video\.bin is 64 MiB \(67108865 bytes\), and the service takes files of 64 MiB at most/],
      [crowded, /it has 257 files to serve, and a release holds 256 at most/],
      [badName, /"my page\.html" is not a name the service serves/],
    ];
    for (const [dir, message] of cases) {
      const r = await runCli(["flock", "deploy", dir], { env: sandbox.env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stdout).toBe("");
    }
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
  }, 60_000);

  test("a symbolic link to a file outside the folder is refused, naming the link, before anything is sent (exit 2)", async () => {
    const dir = await appFolder("linked-out", { "index.html": new TextEncoder().encode("<h1>hi</h1>") });
    expect((await runCli(["flock", "deploy", dir], { env: sandbox.env })).code).toBe(0);
    const secret = path.join(sandbox.home, "outside-secret.txt");
    await writeFile(secret, "OUTSIDE-SECRET-4242");
    await symlink(secret, path.join(dir, "notes.txt"));

    const from = sandbox.store.requestLog.length;
    const r = await runCli(["flock", "deploy", dir], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `Error: ${dir}: notes.txt: it leads outside the app folder through a symbolic link: copy the file into the folder instead of linking to it\n`,
    );
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
    // The release served is still the one before the link, and it has no such file.
    const image = imageOf("linked-out")!;
    expect(image.releases.map((x) => x.number)).toEqual([1]);
    expect(image.releases[0]!.assets.map((a) => a.name)).toEqual(["index.html"]);
    expect((await fetchReleaseFile("linked-out", 1, "notes.txt")).status).toBe(404);
  }, 60_000);

  test("storage that takes an upload and never answers: each try is given up after --upload-timeout, and the error names the file and says to deploy again", async () => {
    // Storage that reads the upload and never answers; the release's upload URLs are pointed at
    // it by a relay in front of the sandbox (the sandbox hands out URLs on its own origin).
    const held: string[] = [];
    const silent = http.createServer((req) => {
      held.push(req.url!);
      req.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const front = http.createServer((req, res) => {
      const forward = http.request(`${sandbox.server.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8").replaceAll(sandbox.server.url, silentUrl);
          const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(body)) };
          delete headers["transfer-encoding"];
          res.writeHead(answer.statusCode!, headers);
          res.end(body);
        });
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    try {
      const dir = await appFolder("silent-storage", { "index.html": new TextEncoder().encode("<h1>never answered</h1>") });
      const r = await runCli(["flock", "deploy", dir, "--upload-timeout", "0.3"], {
        env: { ...sandbox.env, REDUCK_API_URL: `http://127.0.0.1:${(front.address() as AddressInfo).port}` },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^Error: uploading index\.html failed 3 times: storage at http:\/\/127\.0\.0\.1:\d+\/__sandbox\/uploads\/\S+ took no more of it and gave no answer for 300 ms \(the upload timeout\)\. Deploy again to finish release 1: only the files not yet uploaded are sent\.?\n$/,
      );
      // Each of the three tries reached the silent storage, and each was given up.
      expect(held).toHaveLength(3);
      expect(JSON.parse(await readFile(path.join(dir, ".flock-deploy.json"), "utf8"))).toMatchObject({ release: 1, done: [] });

      const bad = await runCli(["flock", "deploy", dir, "--upload-timeout", "soon"], { env: sandbox.env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe('Error: --upload-timeout takes seconds, such as 60 or 0.5 (you gave "soon")\n');
    } finally {
      for (const s of [silent, front]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    }
  }, 30_000);

  test("an account without early access gets the service's words (exit 1)", async () => {
    const dir = await appFolder("no-access", { "front.jsx": new Uint8Array(3) });
    const r = await runCli(["flock", "deploy", dir], { env: { ...sandbox.env, REDUCK_API_KEY: sandbox.store.demo.noAppsApiKey } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(EARLY_ACCESS_WORDS);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    const list = await runCli(["flock", "list"], { env: { ...sandbox.env, REDUCK_API_KEY: sandbox.store.demo.noAppsApiKey } });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(EARLY_ACCESS_WORDS);
  }, 30_000);
});

describe("install, releases, rollback, secrets, list, open", () => {
  test("from one folder, as the official CLI's verbs", async () => {
    const dir = await appFolder("guest", { "index.html": new TextEncoder().encode("<h1>v1</h1>") });
    expect((await runCli(["flock", "deploy"], { env: sandbox.env, cwd: dir })).code).toBe(0);
    await writeFile(path.join(dir, "index.html"), "<h1>v2</h1>");
    expect((await runCli(["flock", "deploy"], { env: sandbox.env, cwd: dir })).code).toBe(0);

    const installed = await runCli(["flock", "install", "@demo/guest", "--dir", dir], { env: sandbox.env });
    expect(installed.code, installed.stderr).toBe(0);
    const flock = JSON.parse(await readFile(path.join(dir, "flock.json"), "utf8"));
    expect(flock).toMatchObject({ image: { handle: "@demo", slug: "guest" }, release: 2, app: { handle: "@demo", id: expect.any(String) } });
    expect(sandbox.store.apps.get(flock.app.id)).toBeDefined();

    const opened = await runCli(["flock", "open"], { env: sandbox.env, cwd: dir });
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toBe(`${sandbox.server.url}/app/${flock.app.id}\n`);
    const asOwner = { headers: { "x-api-key": sandbox.store.demo.apiKey } };
    expect(await (await fetch(opened.stdout.trim(), asOwner)).text()).toBe("<h1>v2</h1>");
    // The app and its image's releases are private: their addresses alone get nothing.
    expect((await fetch(opened.stdout.trim())).status).toBe(401);
    expect((await fetch(`${sandbox.server.url}/__sandbox/releases/@demo/guest/2/index.html`)).status).toBe(401);

    const releases = JSON.parse((await runCli(["flock", "releases", "--json"], { env: sandbox.env, cwd: dir })).stdout);
    expect(releases.data.map((r: { number: number; current: boolean }) => [r.number, r.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const table = await runCli(["flock", "releases"], { env: sandbox.env, cwd: dir });
    expect(table.stdout).toMatch(/^2 \(current\)/m);

    const rolled = await runCli(["flock", "rollback", "1"], { env: sandbox.env, cwd: dir });
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(rolled.stdout).toBe("@demo/guest now serves release 1.\n");
    // flock.json says which release is served now, beside the last one deployed.
    expect(JSON.parse(await readFile(path.join(dir, "flock.json"), "utf8"))).toMatchObject({ release: 2, served: 1 });
    expect(await (await fetch(opened.stdout.trim(), asOwner)).text()).toBe("<h1>v1</h1>");
    expect((await runCli(["flock", "rollback", "seven"], { env: sandbox.env, cwd: dir })).code).toBe(2);
    const missing = await runCli(["flock", "rollback", "5"], { env: sandbox.env, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "Error: rolling @demo/guest back to release 5: @demo/guest has no release 5. @demo/guest has releases 1 to 2: see `reduck flock releases`.\n",
    );

    const secret = "secret_do-not-print-4242";
    const set = await runCli(["flock", "secrets:set", `NOTION_TOKEN=${secret}`], { env: sandbox.env, cwd: dir });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`Set NOTION_TOKEN on app ${flock.app.id} (values are never shown).\n`);
    const setJson = await runCli(["flock", "secrets", "set", `NOTION_TOKEN=${secret}`, "--json"], { env: sandbox.env, cwd: dir });
    expect(JSON.parse(setJson.stdout).secrets.map((s: { name: string }) => s.name)).toEqual(["NOTION_TOKEN"]);
    for (const out of [set.stdout, set.stderr, setJson.stdout, setJson.stderr]) expect(out).not.toContain(secret);
    expect(sandbox.store.apps.get(flock.app.id)!.secrets.has("NOTION_TOKEN")).toBe(true);
    expect((await runCli(["flock", "secrets:set", "1BAD=x"], { env: sandbox.env, cwd: dir })).code).toBe(2);

    const list = JSON.parse((await runCli(["flock", "list", "--json"], { env: sandbox.env })).stdout);
    expect(list.data.map((a: { id: string }) => a.id)).toContain(flock.app.id);
  }, 90_000);

  test("the minimal manifest.json docs/flock.md shows deploys as it says; releases on a terminal are under labelled columns", async () => {
    const page = await readFile(new URL("../../docs/flock.md", import.meta.url), "utf8");
    const shown = /The smallest app folder[^`]*```json\n([\s\S]*?)```/.exec(page)?.[1];
    expect(shown, "the minimal manifest.json in docs/flock.md").toBeDefined();
    const manifest = JSON.parse(shown!);
    const dir = path.join(sandbox.home, "from-the-docs");
    await mkdir(dir);
    await writeFile(path.join(dir, "manifest.json"), shown!);
    await writeFile(path.join(dir, "index.html"), "<p>notes</p>");
    const deployed = await runCli(["flock", "deploy"], { env: sandbox.env, cwd: dir });
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stdout).toBe(`Published release 1 of @demo/${manifest.slug}.\n`);
    expect(imageOf(manifest.slug)).toMatchObject({ name: manifest.name, description: manifest.description });

    const t = openTerminal(["flock", "releases"], { env: sandbox.env, cwd: dir, columns: 100 });
    const { code, output } = await t.exited;
    expect(code, output).toBe(0);
    const lines = output.replaceAll("\r", "").trimEnd().split("\n");
    expect(lines[0]).toMatch(/^RELEASE +PUBLISHED +FILES +STARTED$/);
    expect(lines[1]).toMatch(/^1 \(current\) +\d{4}-\d\d-\d\dT\S+ +1 +\d{4}-/);
  }, 60_000);

  test("hidden from --help unless REDUCK_EXPERIMENTAL=1, and runs either way", async () => {
    expect((await runCli(["--help"], { env: sandbox.env })).stdout).not.toMatch(/flock/);
    const shown = await runCli(["--help"], { env: { ...sandbox.env, REDUCK_EXPERIMENTAL: "1" } });
    expect(shown.stdout).toMatch(/^ {2}flock +Hosted apps/m);
    const topic = await runCli(["flock", "--help"], { env: { ...sandbox.env, REDUCK_EXPERIMENTAL: "1" } });
    for (const verb of ["deploy", "install", "list", "open", "releases", "rollback"]) expect(topic.stdout).toMatch(new RegExp(`^ {2}flock ${verb} `, "m"));
  }, 30_000);
});
