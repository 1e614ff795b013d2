// Hosted apps over real loopback HTTP: a release's files cross a socket to the sandbox's own upload
// route (a direct route, so big files stream instead of meeting the API's 1 MiB body limit), are
// published and served back byte for byte; and the sandbox process's app options.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHandlers, createStore, startHttpServer, type RunningHttpServer } from "../index.js";
import { EARLY_ACCESS_WORDS } from "../store/apps.js";
import { parseSandboxArgs } from "../process/sandbox-options.js";
import { startSandboxProcess } from "../process/sandbox-process.js";
import { scratchFolder } from "../store/scratch.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function bytesOf(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 13 + seed) & 0xff;
  return bytes;
}

interface Started {
  number: number;
  uploads: Array<{ name: string; url: string; headers: Record<string, string> }>;
  expires_in: number;
}

function api(base: string, key: string) {
  return async (method: string, route: string, body?: unknown) => {
    const answer = await fetch(`${base}${route}`, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: (answer.status === 204 ? undefined : await answer.json()) as any };
  };
}

describe("hosted apps over HTTP", () => {
  let server: RunningHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("uploads files of several sizes (one of 12 MiB) to the presigned URLs, publishes, serves the same bytes", async () => {
    const store = createStore({ browser: "simulated" });
    server = await startHttpServer({ handlers: createHandlers(store) });
    const call = api(server.url, store.demo.apiKey);
    const files: Record<string, Uint8Array<ArrayBuffer>> = {
      "index.html": new TextEncoder().encode("<!doctype html><p>hi</p>\n") as Uint8Array<ArrayBuffer>,
      "app.js": bytesOf(200_000, 1),
      "media/video.bin": bytesOf(12 * 2 ** 20, 2),
    };
    expect((await call("POST", "/api/app-images/%40demo", { slug: "board", name: "Board" })).status).toBe(201);
    const start = await call("POST", "/api/app-images/%40demo/board/releases", {
      files: Object.entries(files).map(([name, b]) => ({ name, size: b.byteLength, sha256: sha256(b) })),
    });
    expect(start.status).toBe(201);
    const started = start.body as Started;
    for (const upload of started.uploads) {
      expect(upload.url.startsWith(`${server.url}/__sandbox/uploads/`)).toBe(true);
      const answer = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: files[upload.name]! });
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(answer.headers.get("etag")).toBe(`"${sha256(files[upload.name]!)}"`);
    }
    const published = await call("POST", `/api/app-images/%40demo/board/releases/${started.number}/publish`);
    expect(published.body).toMatchObject({ current_release: 1 });
    const owner = { headers: { "x-api-key": store.demo.apiKey } };
    for (const [name, bytes] of Object.entries(files)) {
      const served = await fetch(`${server.url}/__sandbox/releases/@demo/board/1/${name}`, owner);
      expect(sha256(new Uint8Array(await served.arrayBuffer())), name).toBe(sha256(bytes));
    }
    const app = await call("POST", "/api/apps/%40demo", { image: { handle: "@demo", slug: "board" } });
    expect(await (await fetch(`${server.url}/app/${app.body.id}/`, owner)).text()).toBe("<!doctype html><p>hi</p>\n");
  });

  it("serves a private release's files and an app's page to their owners only: without a key 401, another account 404", async () => {
    const store = createStore({ browser: "simulated" });
    server = await startHttpServer({ handlers: createHandlers(store) });
    const call = api(server.url, store.demo.apiKey);
    const page = new TextEncoder().encode("<p>private</p>") as Uint8Array<ArrayBuffer>;
    await call("POST", "/api/app-images/%40demo", { slug: "diary", name: "Diary" });
    const started = (
      await call("POST", "/api/app-images/%40demo/diary/releases", { files: [{ name: "index.html", size: page.byteLength, sha256: sha256(page) }] })
    ).body as Started;
    expect((await fetch(started.uploads[0]!.url, { method: "PUT", headers: started.uploads[0]!.headers, body: page })).status).toBe(200);
    await call("POST", "/api/app-images/%40demo/diary/releases/1/publish");
    const app = await call("POST", "/api/apps/%40demo", { image: { handle: "@demo", slug: "diary" } });

    for (const url of [`${server.url}/__sandbox/releases/@demo/diary/1/index.html`, `${server.url}/app/${app.body.id}/`]) {
      const anonymous = await fetch(url);
      expect(anonymous.status, url).toBe(401);
      expect(anonymous.headers.get("www-authenticate"), url).toMatch(/^Bearer resource_metadata=/);
      expect(await anonymous.text()).not.toContain("private");
      const other = await fetch(url, { headers: { "x-api-key": store.demo.otherUserApiKey } });
      expect(other.status, url).toBe(404);
      const noApps = await fetch(url, { headers: { "x-api-key": store.demo.noAppsApiKey } });
      expect(noApps.status, url).toBe(403);
      const token = await fetch(url, { headers: { authorization: `Bearer ${store.demo.oauthToken}` } });
      expect(token.status, url).toBe(200);
      const owner = await fetch(url, { headers: { "x-api-key": store.demo.apiKey } });
      expect(await owner.text(), url).toBe("<p>private</p>");
    }
  });

  it("refuses a body longer than the file it was declared as, and the connection stays usable", async () => {
    const store = createStore({ browser: "simulated" });
    server = await startHttpServer({ handlers: createHandlers(store) });
    const call = api(server.url, store.demo.apiKey);
    await call("POST", "/api/app-images/%40demo", { slug: "board", name: "Board" });
    const declared = bytesOf(1000, 3);
    const started = (await call("POST", "/api/app-images/%40demo/board/releases", { files: [{ name: "a.bin", size: 1000, sha256: sha256(declared) }] }))
      .body as Started;
    const upload = started.uploads[0]!;
    // Streamed without a length: the sandbox stops reading past the declared size.
    const longer = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytesOf(4 * 2 ** 20, 3));
        controller.close();
      },
    });
    const refused = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: longer, duplex: "half" } as RequestInit);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/past the 1000 bytes/);
    expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: declared })).status).toBe(200);
  });

  it("takes a second PUT on a URL whose first is still arriving (its sender died): the whole one is kept, the cut one leaves nothing", async () => {
    const store = createStore({ browser: "simulated" });
    server = await startHttpServer({ handlers: createHandlers(store) });
    const call = api(server.url, store.demo.apiKey);
    await call("POST", "/api/app-images/%40demo", { slug: "board", name: "Board" });
    const bytes = bytesOf(2 * 2 ** 20, 4);
    const started = (
      await call("POST", "/api/app-images/%40demo/board/releases", { files: [{ name: "a.bin", size: bytes.byteLength, sha256: sha256(bytes) }] })
    ).body as Started;
    const upload = started.uploads[0]!;
    // The first sender sends half, and its socket stays open, as a killed process's may for a while.
    const logged = store.requestLog.length;
    const first = http.request(upload.url, { method: "PUT", headers: { ...upload.headers, "content-length": String(bytes.byteLength) } });
    const firstAnswer = new Promise<number | string>((resolve) => {
      first.on("response", (r) => resolve(r.statusCode ?? 0));
      first.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    first.write(bytes.subarray(0, bytes.byteLength / 2));
    await vi.waitFor(() => expect(store.requestLog.slice(logged).some((r) => r.method === "PUT")).toBe(true));

    const second = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: bytes });
    expect(second.status, await second.clone().text()).toBe(200);
    first.destroy();
    expect(await firstAnswer).toBe("ECONNRESET");
    expect((await call("POST", "/api/app-images/%40demo/board/releases/1/publish")).status).toBe(200);
    const served = await fetch(`${server.url}/__sandbox/releases/@demo/board/1/a.bin`, { headers: { "x-api-key": store.demo.apiKey } });
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
    // The cut upload's part is removed once the sandbox sees its end.
    const folder = path.join(scratchFolder(store), "app-files");
    await vi.waitFor(async () => expect((await readdir(folder)).filter((name) => name.includes(".part-"))).toEqual([]));
  });
});

describe("the sandbox process's app options", () => {
  it("parses --apps, --sealing-key and --upload-expiry", () => {
    expect(parseSandboxArgs(["--apps", "off", "--sealing-key", "off", "--upload-expiry", "5"])).toEqual({
      port: 4010,
      apps: false,
      sealingKey: false,
      uploadExpirySeconds: 5,
    });
    expect(() => parseSandboxArgs(["--upload-expiry", "0"])).toThrow(/--upload-expiry must be a whole number of seconds/);
    expect(() => parseSandboxArgs(["--apps", "maybe"])).toThrow(/--apps must be on or off/);
  });

  it("--apps off, --sealing-key off and --upload-expiry reach the running sandbox", async () => {
    const desktop = await mkdtemp(path.join(os.tmpdir(), "reduck-apps-desktop-"));
    const [noApps, noKey] = await Promise.all([
      startSandboxProcess(desktop, { browser: "simulated", args: ["--apps", "off"] }),
      startSandboxProcess(desktop, { browser: "simulated", args: ["--sealing-key", "off", "--upload-expiry", "7"] }),
    ]);
    try {
      const withoutApps = api(noApps.env.REDUCK_API_URL!, noApps.env.REDUCK_API_KEY!);
      expect((await withoutApps("GET", "/api/me")).body.experimental_features).toEqual([]);
      const refused = await withoutApps("GET", "/api/apps");
      expect(refused.status).toBe(403);
      expect(refused.body.error).toContain(EARLY_ACCESS_WORDS);

      const call = api(noKey.env.REDUCK_API_URL!, noKey.env.REDUCK_API_KEY!);
      expect((await call("GET", "/api/me")).body.experimental_features).toEqual(["flock_apps"]);
      await call("POST", "/api/app-images/%40demo", { slug: "board", name: "Board" });
      const bytes = new TextEncoder().encode("hello");
      const started = (await call("POST", "/api/app-images/%40demo/board/releases", { files: [{ name: "index.html", size: 5, sha256: sha256(bytes) }] }))
        .body as Started;
      expect(started.expires_in).toBe(7);
      const upload = started.uploads[0]!;
      expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: bytes })).status).toBe(200);
      await call("POST", "/api/app-images/%40demo/board/releases/1/publish");
      const app = await call("POST", "/api/apps/%40demo", { image: { handle: "@demo", slug: "board" } });
      const secret = await call("PATCH", `/api/apps/%40demo/${app.body.id}/secrets`, { secrets: { TOKEN: "value" } });
      expect(secret.status).toBe(503);
    } finally {
      noApps.stop();
      noKey.stop();
      await Promise.all([noApps.exited, noKey.exited]);
      await rm(desktop, { recursive: true, force: true });
    }
  });
});
