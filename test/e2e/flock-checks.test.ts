/**
 * `reduck flock` checks before it acts, and takes nothing from the service on trust: a --dir where
 * flock.json cannot be written is refused before an app is installed (the sandbox's app count
 * stays put); a write that fails after the install says what the service did and how to finish;
 * app ids and release numbers of the wrong shape, from a scripted server or a flock.json someone
 * else wrote, are neither stored nor put into a URL, and are shown only as text: a list with one
 * odd id is still the list.
 */
import { chmod, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import { runCli } from "../support/cli.js";
import { listenOnLoopback } from "../support/loopback.js";
import { nodeBoundByPermissions } from "../support/permissions.js";
import { useCliSandbox } from "../support/sandbox.js";
import { scriptedServer } from "../support/scripted-server.js";

const sandbox = useCliSandbox({ home: "reduck-flock-checks-" });

const HOSTILE_ID = "../../etc/\u0000\u001b]0;owned\u0007";
const APP_ID = "3f1c2a9e-8b4d-4c1e-9a7f-2d5e6b8c0a13";

/** An App answer as the service gives it, with `id` as given. */
function appAnswer(id: string, handle = "@demo"): string {
  return JSON.stringify({
    id,
    name: "Guestbook",
    owner: { kind: "user", handle, name: "Demo" },
    image: { handle: "reduck", slug: "guestbook", name: "Guestbook", current_release: 1 },
    current_release: 1,
    released_at: "2026-01-01T00:00:00.000Z",
    pending_decisions: 0,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    config: {},
    api_grant: {},
    secrets: [],
  });
}

/**
 * A relay in front of the sandbox (closed when the test ends) that runs `before` once the
 * sandbox answered a request, before that answer goes back: the moment after the service acted.
 */
async function relay(before: (method: string, route: string) => Promise<void>): Promise<string> {
  const server = http.createServer((req, res) => {
    const forward = http.request(`${sandbox.server.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", async () => {
        await before(req.method!, req.url!);
        res.writeHead(answer.statusCode!, answer.headers);
        res.end(Buffer.concat(chunks));
      });
    });
    req.pipe(forward);
  });
  const { url, close } = await listenOnLoopback(server);
  onTestFinished(close);
  return url;
}

describe("flock install --dir, checked before the app is installed", () => {
  test("a --dir under a file is refused (exit 2), nothing is sent, and no app is installed", async () => {
    const file = path.join(sandbox.home, "a-file");
    await writeFile(file, "not a folder");
    const apps = sandbox.store.apps.size;
    const from = sandbox.store.requestLog.length;
    for (const dir of [file, path.join(file, "app")]) {
      const r = await runCli(["flock", "install", "reduck/guestbook", "--dir", dir], { env: sandbox.env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^Error: --dir .+: .+ is a file, not a folder: choose a folder you can write to\n$/);
    }
    expect(sandbox.store.apps.size).toBe(apps);
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
  }, 30_000);

  test("a --dir no file can be created in is refused (exit 2), and each retry installs nothing", async () => {
    const dir = path.join(sandbox.home, "read-only");
    await mkdir(dir);
    await chmod(dir, 0o555);
    onTestFinished(() => chmod(dir, 0o755));
    const node = await nodeBoundByPermissions(sandbox.home);
    const apps = sandbox.store.apps.size;
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await runCli(["flock", "install", "reduck/guestbook", "--dir", dir], { env: sandbox.env, node });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`Error: --dir ${dir}: no file can be created in ${dir} (EACCES): choose a folder you can write to\n`);
    }
    expect(sandbox.store.apps.size).toBe(apps);
    expect(await readdir(dir)).toEqual([]);
  }, 30_000);

  test("a --dir that does not exist yet is made, and flock.json names the app", async () => {
    const dir = path.join(sandbox.home, "new", "nested", "app");
    const r = await runCli(["flock", "install", "reduck/guestbook", "--dir", dir], { env: sandbox.env });
    expect(r.code, r.stderr).toBe(0);
    const flock = JSON.parse(await readFile(path.join(dir, "flock.json"), "utf8"));
    expect(sandbox.store.apps.get(flock.app.id)).toBeDefined();
  }, 30_000);

  test("a write that still fails after the install says which app was installed, and how to finish or undo it (exit 1)", async () => {
    const dir = path.join(sandbox.home, "vanishing");
    await mkdir(dir);
    // In front of the sandbox: once the app is installed, the folder is swapped for a file.
    const url = await relay(async (method, route) => {
      if (method === "POST" && route.startsWith("/api/apps/")) {
        await rm(dir, { recursive: true });
        await writeFile(dir, "");
      }
    });
    const apps = new Set(sandbox.store.apps.keys());
    const r = await runCli(["flock", "install", "reduck/guestbook", "--dir", dir], { env: { ...sandbox.env, REDUCK_API_URL: url } });
    expect(r.code, r.stderr).toBe(1);
    const installed = [...sandbox.store.apps.keys()].filter((id) => !apps.has(id));
    expect(installed).toHaveLength(1);
    const id = installed[0]!;
    const record = JSON.stringify({ image: { handle: "reduck", slug: "guestbook" }, app: { handle: "@demo", id } });
    expect(r.stderr).toBe(
      `Error: Installed reduck/guestbook as app ${id} in @demo, but ${path.join(dir, "flock.json")} could not be written (ENOTDIR). ` +
        `To finish, write this into it: ${record}. To undo, uninstall the app: \`uninstallApp({ client, path: { handle: "@demo", appId: "${id}" } })\` from reduck-client\n`,
    );
  }, 30_000);
});

describe("flock deploy, checked before a release is started", () => {
  test("a folder no file can be created in, or a flock.json that is a folder, is refused before anything is sent (exit 2)", async () => {
    const locked = path.join(sandbox.home, "locked-app");
    await mkdir(locked);
    await writeFile(path.join(locked, "index.html"), "<p>hi</p>");
    await chmod(locked, 0o555);
    onTestFinished(() => chmod(locked, 0o755));
    const odd = path.join(sandbox.home, "odd-app");
    await mkdir(path.join(odd, "flock.json"), { recursive: true });
    await writeFile(path.join(odd, "index.html"), "<p>hi</p>");
    const node = await nodeBoundByPermissions(sandbox.home);
    const from = sandbox.store.requestLog.length;
    const r = await runCli(["flock", "deploy", locked], { env: sandbox.env, node });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`Error: ${locked}: the deploy writes .flock-deploy.json and flock.json in the folder, and no file can be created there (EACCES)\n`);
    const o = await runCli(["flock", "deploy", odd], { env: sandbox.env });
    expect(o.code, o.stderr).toBe(2);
    expect(o.stderr).toBe(`Error: ${odd}: flock.json is not a file: the deploy writes it, so move it away\n`);
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
  }, 30_000);

  test("flock.json that cannot be written once the release is published: what was published, and what to write (exit 1)", async () => {
    const dir = path.join(sandbox.home, "late-lock");
    await mkdir(dir);
    await writeFile(path.join(dir, "index.html"), "<p>hi</p>");
    onTestFinished(() => chmod(dir, 0o755));
    const url = await relay(async (method, route) => {
      if (method === "POST" && route.endsWith("/publish")) await chmod(dir, 0o555);
    });
    const r = await runCli(["flock", "deploy", dir], { env: { ...sandbox.env, REDUCK_API_URL: url }, node: await nodeBoundByPermissions(sandbox.home) });
    expect(r.code, r.stderr).toBe(1);
    const record = JSON.stringify({ image: { handle: "@demo", slug: "late-lock" }, release: 1, served: 1 });
    expect(r.stderr).toBe(
      `Error: release 1 of @demo/late-lock was published and is served, but ${path.join(dir, "flock.json")} could not be written (EACCES): to finish, write this into it: ${record}\n`,
    );
    const image = [...sandbox.store.appImages.values()].find((i) => i.slug === "late-lock")!;
    expect(image.currentRelease).toBe(1);
  }, 30_000);
});

describe("flock rollback, checked before the image is rolled back", () => {
  test("a flock.json it could not update is refused before anything is sent (exit 2): the image keeps serving its release", async () => {
    const dir = path.join(sandbox.home, "roll-locked");
    await mkdir(dir);
    await writeFile(path.join(dir, "index.html"), "<p>one</p>");
    for (let i = 0; i < 2; i++) expect((await runCli(["flock", "deploy", dir], { env: sandbox.env })).code).toBe(0);
    await chmod(dir, 0o555);
    onTestFinished(() => chmod(dir, 0o755));
    const from = sandbox.store.requestLog.length;
    const r = await runCli(["flock", "rollback", "1", "--dir", dir], { env: sandbox.env, node: await nodeBoundByPermissions(sandbox.home) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`Error: --dir ${dir}: no file can be created in ${dir} (EACCES): choose a folder you can write to\n`);
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
    expect([...sandbox.store.appImages.values()].find((i) => i.slug === "roll-locked")!.currentRelease).toBe(2);
  }, 60_000);
});

describe("ids from the service and from flock.json have their documented shapes", () => {
  test("an app id holding ../, a NUL and escapes is neither printed nor stored (exit 1)", async () => {
    const server = await scriptedServer({ body: JSON.stringify({ handle: "@demo" }) }, { status: 201, body: appAnswer(HOSTILE_ID) });
    const dir = path.join(sandbox.home, "hostile-install");
    const r = await runCli(["flock", "install", "reduck/guestbook", "--dir", dir], { env: { ...sandbox.env, REDUCK_API_URL: server.url } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `Error: installing reduck/guestbook: the service answered an app id that is not one (a UUID), so it was neither shown nor written to ${path.join(dir, "flock.json")}. An app of reduck/guestbook may have been installed in @demo: \`reduck flock list @demo\` lists its apps\n`,
    );
    expect(await readdir(dir)).toEqual([]);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /api/me", "POST /api/apps/%40demo"]);
  }, 30_000);

  test("an owner handle of the wrong shape is refused as well", async () => {
    const server = await scriptedServer({ body: JSON.stringify({ handle: "@demo" }) }, { status: 201, body: appAnswer(APP_ID, "..") });
    const dir = path.join(sandbox.home, "hostile-owner");
    const r = await runCli(["flock", "install", "reduck/guestbook", "--dir", dir], { env: { ...sandbox.env, REDUCK_API_URL: server.url } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^Error: installing reduck\/guestbook: the service answered a scope handle that is not one/);
    expect(await readdir(dir)).toEqual([]);
  }, 30_000);

  test("a list with one odd app id is still the list: every row shown, the odd id as text with its controls escaped", async () => {
    const odd = JSON.parse(appAnswer(HOSTILE_ID));
    const page = JSON.stringify({ data: [JSON.parse(appAnswer(APP_ID)), odd], hasNextPage: false, totalCount: 2 });
    const list = await scriptedServer({ body: page });
    const human = await runCli(["flock", "list"], { env: { ...sandbox.env, REDUCK_API_URL: list.url } });
    expect(human.code, human.stderr).toBe(0);
    const rows = human.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(2);
    expect(rows[0]!.split("\t")[0]).toBe(APP_ID);
    expect(rows[1]!.split("\t")[0]).toBe("../../etc/\\u0000\\u001b]0;owned\\u0007");
    expect(human.stdout).not.toMatch(/[\u0000\u0007\u001b]/);
    const json = await runCli(["flock", "list", "--json"], { env: { ...sandbox.env, REDUCK_API_URL: list.url } });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).data.map((a: { id: string }) => a.id)).toEqual([APP_ID, HOSTILE_ID]);
    expect(json.stdout).not.toMatch(/[\u0000\u0007\u001b]/);
  }, 30_000);

  test("a list of releases with one odd number is still the list", async () => {
    const release = (number: unknown) => ({ number, current: false, published_at: null, asset_count: 1, created_at: "2026-01-01T00:00:00.000Z" });
    const page = JSON.stringify({ data: [release(2), release("1\u001b[2J")], hasNextPage: false, totalCount: 2 });
    const server = await scriptedServer({ body: page });
    const r = await runCli(["flock", "releases", "--image", "@demo/notes"], { env: { ...sandbox.env, REDUCK_API_URL: server.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((row) => row.split("\t")[0]),
    ).toEqual(["2", "1\\u001b[2J"]);
  }, 30_000);

  test("an odd app id among a scope's apps is named in the hint for an app the service does not know, as text", async () => {
    const gone = "00000000-0000-4000-8000-000000000000";
    const dir = path.join(sandbox.home, "hint-odd-id");
    await mkdir(dir);
    await writeFile(path.join(dir, "flock.json"), JSON.stringify({ app: { handle: "@demo", id: gone } }));
    const page = JSON.stringify({ data: [JSON.parse(appAnswer(HOSTILE_ID)), JSON.parse(appAnswer(APP_ID))], hasNextPage: false, totalCount: 2 });
    const server = await scriptedServer({ status: 404, body: JSON.stringify({ error: `No app ${gone} under @demo.` }) }, { body: page });
    const r = await runCli(["flock", "open", "--dir", dir], { env: { ...sandbox.env, REDUCK_API_URL: server.url } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`@demo has ../../etc/\\u0000\\u001b]0;owned\\u0007, ${APP_ID};`);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/apps/%40demo/${gone}`, "GET /api/apps/%40demo?pageSize=100"]);
  }, 30_000);

  test("flock open refuses an answer whose app id cannot make the app's address", async () => {
    const dir = path.join(sandbox.home, "open-hostile");
    await mkdir(dir);
    await writeFile(path.join(dir, "flock.json"), JSON.stringify({ app: { handle: "@demo", id: APP_ID } }));
    const get = await scriptedServer({ body: appAnswer(HOSTILE_ID) });
    const opened = await runCli(["flock", "open", "--dir", dir], { env: { ...sandbox.env, REDUCK_API_URL: get.url } });
    expect(opened.code, opened.stderr).toBe(1);
    expect(opened.stdout).toBe("");
    expect(opened.stderr).toBe(`Error: reading app ${APP_ID}: the service answered an app id that is not one (a UUID), so it cannot make the app's address\n`);
    // Its scope's handle is not used by open: one of another shape is no reason to refuse.
    const odd = await scriptedServer({ body: appAnswer(APP_ID, "..") });
    const shown = await runCli(["flock", "open", "--dir", dir], { env: { ...sandbox.env, REDUCK_API_URL: odd.url } });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.trim()).toBe(`${odd.url}/app/${APP_ID}`);
  }, 30_000);

  test("a flock.json naming an app id or an image that is not one is refused before anything is sent (exit 2)", async () => {
    const cases: Array<[Record<string, unknown>, string[], string]> = [
      [{ app: { handle: "@demo", id: "../../api/me" } }, ["flock", "open"], "app.id is not an app id (a UUID)"],
      [{ app: { handle: "@demo", id: "../../api/me" } }, ["flock", "secrets:set", "A=b"], "app.id is not an app id (a UUID)"],
      [{ image: { handle: "..", slug: "notes" } }, ["flock", "releases"], "image.handle is not a scope's handle"],
      [{ image: { handle: "@demo", slug: "../x" } }, ["flock", "deploy"], "image.slug is not an image's slug"],
      [{ image: { handle: "@demo", slug: "notes" }, release: "2/../../x" }, ["flock", "deploy"], "release is not a release number"],
    ];
    const from = sandbox.store.requestLog.length;
    for (const [content, args, problem] of cases) {
      const dir = path.join(sandbox.home, `bad-flock-${args[1]}-${Object.keys(content).join("-")}`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "index.html"), "<p>hi</p>");
      await writeFile(path.join(dir, "flock.json"), JSON.stringify(content));
      const r = await runCli(args, { env: sandbox.env, cwd: dir });
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${path.join(dir, "flock.json")}: ${problem}`);
    }
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
  }, 60_000);

  test("a release number that is not one stops the deploy before a file is sent or the state file written", async () => {
    const server = await scriptedServer(
      { body: JSON.stringify({ handle: "@demo" }) },
      { body: "{}" },
      { status: 201, body: JSON.stringify({ number: "1/../../../api/me", uploads: [], expires_in: 900 }) },
    );
    const dir = path.join(sandbox.home, "hostile-release");
    await mkdir(dir);
    await writeFile(path.join(dir, "index.html"), "<p>hi</p>");
    const r = await runCli(["flock", "deploy", dir], { env: { ...sandbox.env, REDUCK_API_URL: server.url } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^Error: starting a release of @demo\/hostile-release: the service answered a release number that is not one/);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET /api/me",
      "GET /api/app-images/%40demo/hostile-release",
      "POST /api/app-images/%40demo/hostile-release/releases",
    ]);
    expect((await readdir(dir)).sort()).toEqual(["index.html"]);
  }, 30_000);
});
