/**
 * deployApp against the sandbox over loopback HTTP: progress as it goes, uploads that fail and
 * are tried again (a bounded number of times), a failed deploy finished by the next one, and a
 * folder's problems listed together before anything is sent. Faults are injected by the fetch
 * handed to the client (the network, not our code): storage answering 503, a connection reset.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { createReduckClient, deployApp, readAppFolder, type DeployProgress } from "../../src/index.js";
import { useCliSandbox } from "../support/sandbox.js";
import { sha256 } from "../support/files.js";

const sandbox = useCliSandbox({ home: "reduck-deploy-app-" });

const FILES: Record<string, Uint8Array> = {
  "index.html": new TextEncoder().encode("<h1>notes</h1>\n"),
  "b.bin": randomBytes(2 * 1024 * 1024 + 3),
  "c.bin": randomBytes(300_000),
  "tasks/digest.ts": new TextEncoder().encode("export default async () => ({ ok: true });\n"),
};

async function folder(slug: string, files: Record<string, Uint8Array> = FILES): Promise<string> {
  const dir = path.join(sandbox.home, slug);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "manifest.json"), JSON.stringify({ slug, name: slug }));
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), bytes);
  }
  return dir;
}

/** The name of the file an upload URL is for. */
const fileOfUpload = (url: string) => sandbox.store.uploadTickets.get(new URL(url).pathname.split("/").pop()!)?.name;

/**
 * A fetch that answers for storage as `fault(name, attempt)` says (a status, or "reset" for a
 * connection reset before any answer), and otherwise sends the request on; it counts each file's
 * upload attempts.
 */
function faultyFetch(fault: (name: string, attempt: number) => number | "reset" | undefined) {
  const attempts = new Map<string, number>();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const name = init?.method === "PUT" ? fileOfUpload(url) : undefined;
    if (name) {
      const n = (attempts.get(name) ?? 0) + 1;
      attempts.set(name, n);
      const f = fault(name, n);
      if (f === "reset") throw new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
      if (f !== undefined) {
        // The body is not read, as a proxy that refuses the request at once would not.
        return new Response(JSON.stringify({ error: "storage is busy" }), { status: f, headers: { "content-type": "application/json" } });
      }
    }
    return globalThis.fetch(input, init);
  };
  return { fetch, attempts };
}

async function served(slug: string, release: number, name: string): Promise<string> {
  const response = await fetch(`${sandbox.server.url}/__sandbox/releases/@demo/${slug}/${release}/${name}`, {
    headers: { "x-api-key": sandbox.store.demo.apiKey },
  });
  expect(response.status, name).toBe(200);
  return sha256(new Uint8Array(await response.arrayBuffer()));
}

describe("deployApp", () => {
  test("over the client's own connections: progress as it goes, then the release number; the files served are those on disk", async () => {
    const client = createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: sandbox.server.url });
    const dir = await folder("notes");
    const seen: DeployProgress[] = [];
    const { data, error } = await deployApp({ client, dir, onProgress: (p) => seen.push(p) });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ image: { handle: "@demo", slug: "notes" }, release: 1, created: true, resumed: false, uploaded: 4 });
    const total = Object.values(FILES).reduce((n, b) => n + b.byteLength, 0);
    expect(seen.map((p) => p.phase).filter((p, i, all) => p !== all[i - 1])).toEqual(["starting", "uploading", "publishing", "published"]);
    expect(seen.every((p) => p.filesTotal === 4 && p.bytesTotal === total)).toBe(true);
    expect(
      seen
        .filter((p) => p.finished)
        .map((p) => p.finished)
        .sort(),
    ).toEqual(Object.keys(FILES).sort());
    const bytes = seen.map((p) => p.bytesDone);
    expect(Math.max(...bytes)).toBe(total);
    expect(seen.at(-1)).toMatchObject({ phase: "published", release: 1, filesDone: 4, bytesDone: total });
    for (const [name, content] of Object.entries(FILES)) expect(await served("notes", 1, name)).toBe(sha256(content));
    expect(JSON.parse(await readFile(path.join(dir, "flock.json"), "utf8"))).toEqual({ image: { handle: "@demo", slug: "notes" }, release: 1, served: 1 });
  }, 30_000);

  test("through a fetch of the caller's: a 503 and a reset connection are tried again, and the deploy goes through", async () => {
    const { fetch, attempts } = faultyFetch((name, n) => (name === "b.bin" && n === 1 ? 503 : name === "c.bin" && n === 1 ? "reset" : undefined));
    const client = createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: sandbox.server.url, fetch });
    const dir = await folder("retried");
    const retries: DeployProgress["retrying"][] = [];
    const { data, error } = await deployApp({ client, dir, onProgress: (p) => p.retrying && retries.push(p.retrying) });
    expect(error).toBeUndefined();
    expect(data?.release).toBe(1);
    expect(Object.fromEntries(attempts)).toEqual({ "index.html": 1, "b.bin": 2, "c.bin": 2, "tasks/digest.ts": 1 });
    expect(retries.map((r) => [r!.file, r!.attempt]).sort()).toEqual([
      ["b.bin", 2],
      ["c.bin", 2],
    ]);
    for (const [name, content] of Object.entries(FILES)) expect(await served("retried", 1, name)).toBe(sha256(content));
  }, 30_000);

  test("an upload that keeps failing is tried 3 times, nothing is published; the next deploy finishes that same release", async () => {
    const failing = faultyFetch((name) => (name === "b.bin" ? 503 : undefined));
    const dir = await folder("stubborn");
    const first = await deployApp({
      client: createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: sandbox.server.url, fetch: failing.fetch }),
      dir,
    });
    expect(first.error?.error).toMatch(/^uploading b\.bin failed 3 times: storage answered the upload of b\.bin with storage is busy/);
    expect(failing.attempts.get("b.bin")).toBe(3);
    const image = [...sandbox.store.appImages.values()].find((i) => i.slug === "stubborn")!;
    expect(image.releases.map((r) => [r.number, r.publishedAt])).toEqual([[1, null]]);

    const fine = faultyFetch(() => undefined);
    const second = await deployApp({ client: createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: sandbox.server.url, fetch: fine.fetch }), dir });
    expect(second.error).toBeUndefined();
    expect(second.data).toMatchObject({ release: 1, resumed: true, uploaded: 1 });
    expect(Object.fromEntries(fine.attempts)).toEqual({ "b.bin": 1 });
    expect(image.releases.map((r) => r.number)).toEqual([1]);
    expect(await served("stubborn", 1, "b.bin")).toBe(sha256(FILES["b.bin"]!));
  }, 30_000);

  test("storage that takes an upload and never answers: the try is given up after uploadTimeoutMs, naming the file; the next deploy finishes that release", async () => {
    // A server that accepts the upload, reads it whole, and never answers. Only the uploads go
    // there (the client's proxy setting routes them); catalogue calls reach the sandbox.
    const held: string[] = [];
    const silent = http.createServer((req) => {
      held.push(req.method!);
      req.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const dir = await folder("silent-storage", { "index.html": FILES["index.html"]!, "c.bin": FILES["c.bin"]! });
      const client = createReduckClient({
        apiKey: sandbox.store.demo.apiKey,
        baseUrl: sandbox.server.url,
        proxy: (url) => (new URL(url).pathname.startsWith("/__sandbox/uploads/") ? silentUrl : undefined),
      });
      const first = await deployApp({ client, dir, uploadTimeoutMs: 300, uploadAttempts: 1, concurrency: 1 });
      expect(first.error?.kind).toBe("timeout");
      expect(first.error?.error).toMatch(
        /^uploading (index\.html|c\.bin) failed: storage at http:\/\/127\.0\.0\.1:\d+\/__sandbox\/uploads\/\S+ took no more of it and gave no answer for 300 ms \(the upload timeout\)\. Deploy again to finish release 1: only the files not yet uploaded are sent$/,
      );
      // The upload did reach the silent server: it was the timeout, not a refused connection, that ended it.
      expect(held).toEqual(["PUT"]);
      const image = [...sandbox.store.appImages.values()].find((i) => i.slug === "silent-storage")!;
      expect(image.releases.map((r) => [r.number, r.publishedAt])).toEqual([[1, null]]);

      // Storage answers again: the same release is finished, every file sent.
      const second = await deployApp({ client: createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: sandbox.server.url }), dir });
      expect(second.error).toBeUndefined();
      expect(second.data).toMatchObject({ release: 1, resumed: true, uploaded: 2 });
      expect(await served("silent-storage", 1, "c.bin")).toBe(sha256(FILES["c.bin"]!));
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);

  test("through a fetch of the caller's that never answers an upload: given up after uploadTimeoutMs, then tried again", async () => {
    let tries = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (init?.method !== "PUT" || !fileOfUpload(url)) return globalThis.fetch(input, init);
      tries++;
      // Never answers; gives up only when told to, as fetch does.
      return new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true }));
    };
    const dir = await folder("silent-fetch", { "index.html": FILES["index.html"]! });
    const retries: string[] = [];
    const { error } = await deployApp({
      client: createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: sandbox.server.url, fetch }),
      dir,
      uploadTimeoutMs: 200,
      uploadAttempts: 2,
      onProgress: (p) => p.retrying && retries.push(p.retrying.error),
    });
    expect(tries).toBe(2);
    expect(retries).toEqual([expect.stringMatching(/gave no answer for 200 ms \(the upload timeout\)$/)]);
    expect(error?.error).toMatch(
      /^uploading index\.html failed 2 times: storage at \S+ took no more of it and gave no answer for 200 ms \(the upload timeout\)\. Deploy again/,
    );
  }, 30_000);

  test("a folder's problems are listed together, and nothing is sent", async () => {
    const dir = await folder("problems", { "front.jsx": new Uint8Array(1), "-dash.js": new Uint8Array(1), "a b.txt": new Uint8Array(1) });
    await writeFile(path.join(dir, "config.json"), "{ not json");
    const from = sandbox.store.requestLog.length;
    const { error } = await deployApp({ client: createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: sandbox.server.url }), dir });
    expect(error?.kind).toBe("invalid_request");
    expect(error?.problems).toHaveLength(3);
    expect(error?.problems?.join("\n")).toMatch(/config\.json is not JSON/);
    expect(error?.problems?.join("\n")).toMatch(/"-dash\.js" is not a name the service serves \(it must start with a letter or a digit\)/);
    expect(error?.problems?.join("\n")).toMatch(/"a b\.txt" is not a name the service serves/);
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
  });

  test("readAppFolder: what is served, what goes in the body, and what is never sent", async () => {
    const dir = await folder("layout", { "front.jsx": new Uint8Array(2), "schema.sql": new Uint8Array(3), "migrations/001-initial.sql": new Uint8Array(4) });
    await writeFile(path.join(dir, "tools.json"), JSON.stringify([{ task: "digest", description: "Sums up the week" }]));
    await writeFile(path.join(dir, ".api-keys.json"), JSON.stringify({ "api.example.com": {} }));
    await writeFile(path.join(dir, "flock.json"), JSON.stringify({ image: { handle: "@demo", slug: "layout" } }));
    await writeFile(path.join(dir, ".flock-deploy.json"), "{}");
    await mkdir(path.join(dir, ".git"), { recursive: true });
    await writeFile(path.join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    await mkdir(path.join(dir, "node_modules", "x"), { recursive: true });
    await writeFile(path.join(dir, "node_modules", "x", "index.js"), "");
    const read = await readAppFolder(dir);
    expect(read.files.map((f) => f.name)).toEqual(["front.jsx", "migrations/001-initial.sql", "schema.sql"]);
    expect(read.tools).toEqual([{ task: "digest", description: "Sums up the week" }]);
    expect(read.grant).toEqual({ "api.example.com": {} });
    expect(read.migrations).toEqual([{ name: "001-initial.sql", sha: sha256(new Uint8Array(4)) }]);
    expect(read.schemaSha).toBe(sha256(new Uint8Array(3)));
  });
});
