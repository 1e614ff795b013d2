// Hosted apps against the sandbox in-process: app images, a release's presigned uploads and their
// refusals, publish and rollback, archive and restore, apps installed from an image with config and
// secrets, updates and tools, and who may do what (early access, scopes, scopes of others).
import { EARLY_ACCESS_WORDS } from "@reduck-client/sandbox/internal";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  archiveAppImage,
  createApp,
  createAppImage,
  getApp,
  getAppImage,
  getAppImageRelease,
  getAppSecrets,
  getAppTools,
  listAllAppImages,
  listAllApps,
  listAppImageReleases,
  listAppImages,
  listApps,
  listAppUpdates,
  publishAppImageRelease,
  restoreAppImage,
  rollbackAppImage,
  startAppImageRelease,
  uninstallApp,
  updateApp,
  updateAppImage,
  updateAppSecrets,
} from "../../src/index.js";
import { useSandboxClient } from "../support/sandbox-client.js";
import { sha256 } from "../support/files.js";

const ref = useSandboxClient({ fresh: true, selfCheck: true });

/** How the owner fetches what the sandbox serves of a release or an app (never without a key). */
const asOwner = (): RequestInit => ({ headers: { "x-api-key": ref.store.demo.apiKey } });

/** Bytes of a given size that differ from file to file. */
function fileOf(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  return bytes;
}

const FILES: Record<string, Uint8Array> = {
  "index.html": new TextEncoder().encode("<!doctype html><title>Notes</title><script src=app.js></script>\n"),
  "app.js": fileOf(70_000, 1),
  "assets/logo.png": fileOf(1_500_000, 2),
  "migrations/001-initial.sql": new TextEncoder().encode("create table notes (id integer primary key, text text);\n"),
  "empty.txt": new Uint8Array(0),
};

const describeFiles = (files: Record<string, Uint8Array>) =>
  Object.entries(files).map(([name, bytes]) => ({ name, size: bytes.byteLength, sha256: sha256(bytes) }));

const MANIFEST = {
  secrets: {
    NOTION_TOKEN: { label: "Notion token", description: "From notion.so/my-integrations", required: true, page: false },
    SLACK_HOOK: { required: false },
  },
  settings: { type: "object", properties: { brand: { type: "string" } } },
  hooks: { init: "setup" },
  scripts: ["reduck/mail.google.com/send_email"],
};
const TOOLS = [{ task: "add_note", description: "Adds a note to the board.", inputSchema: { type: "object", properties: { text: { type: "string" } } } }];

async function newImage(slug = "notes") {
  const { data, error } = await createAppImage({
    client: ref.client,
    path: { handle: "@demo" },
    body: { slug, name: "Notes", description: "A board of notes." },
  });
  expect(error).toBeUndefined();
  return data!;
}

async function startRelease(files: Record<string, Uint8Array> = FILES, slug = "notes") {
  const { data, error, response } = await startAppImageRelease({
    client: ref.client,
    path: { handle: "@demo", slug },
    body: {
      files: describeFiles(files),
      manifest: MANIFEST,
      tools: TOOLS,
      config: { brand: "Acme", columns: 3 },
      grant: { "api.notion.com": { Authorization: "Bearer ${NOTION_TOKEN}" } },
    },
  });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response?.status).toBe(201);
  return data!;
}

function put(upload: { url: string; headers: Record<string, string> }, bytes: Uint8Array, headers: Record<string, string> = upload.headers) {
  return fetch(upload.url, { method: "PUT", headers, body: bytes as Uint8Array<ArrayBuffer> });
}

async function uploadAll(started: Awaited<ReturnType<typeof startRelease>>, files: Record<string, Uint8Array> = FILES) {
  for (const upload of started.uploads) {
    const answer = await put(upload, files[upload.name]!);
    expect(answer.status, `${upload.name}: ${await answer.clone().text()}`).toBe(200);
  }
}

async function deployed(slug = "notes") {
  await newImage(slug);
  const started = await startRelease(FILES, slug);
  await uploadAll(started);
  const published = await publishAppImageRelease({ client: ref.client, path: { handle: "@demo", slug, releaseNumber: started.number } });
  expect(published.error).toBeUndefined();
  return started.number;
}

afterEach(() => vi.useRealTimers());

describe("app images", () => {
  test("made private and without a release; listed by handle and among all; read back; renamed; made public", async () => {
    const image = await newImage();
    expect(image).toMatchObject({
      slug: "notes",
      visibility: "private",
      current_release: null,
      manifest: null,
      release_count: 0,
      owner: { kind: "user", handle: "@demo" },
    });

    const mine = await listAppImages({ client: ref.client, path: { handle: "@demo" } });
    expect(mine.data!.map((i) => i.slug)).toEqual(["notes"]);
    expect(mine.hasNextPage).toBe(false);
    const all = await listAllAppImages({ client: ref.client });
    expect(all.data!.map((i) => `${i.owner.handle}/${i.slug}`)).toEqual(["@demo/notes", "reduck/guestbook"]);
    expect(all.hasNextPage).toBe(false);

    const updated = await updateAppImage({
      client: ref.client,
      path: { handle: "@demo", slug: "notes" },
      body: { name: "Team notes", visibility: "public", about: "Long text." },
    });
    expect(updated.data).toMatchObject({ name: "Team notes", visibility: "public", about: "Long text.", description: "A board of notes." });
    expect((await getAppImage({ client: ref.client, path: { handle: "@demo", slug: "notes" } })).data?.name).toBe("Team notes");
  });

  test("a slug already used in that scope: 409", async () => {
    await newImage();
    const again = await createAppImage({ client: ref.client, path: { handle: "@demo" }, body: { slug: "notes", name: "Other" } });
    expect(again.error?.status).toBe(409);
  });

  test("the public catalogue needs no account; the rest of the listing does", async () => {
    const open = await fetch("https://reduck.ai/api/app-images?catalogueOnly=true");
    expect(open.status).toBe(200);
    expect(((await open.json()) as { data: Array<{ slug: string }> }).data.map((i) => i.slug)).toEqual(["guestbook"]);
    expect((await fetch("https://reduck.ai/api/app-images")).status).toBe(401);
    const catalogue = await listAllAppImages({ client: ref.client, query: { catalogueOnly: "true" } });
    expect(catalogue.data!.map((i) => i.slug)).toEqual(["guestbook"]);
  });

  test("pages: hasNextPage and totalCount", async () => {
    for (let i = 0; i < 5; i++) await newImage(`img-${i}`);
    const first = await listAppImages({ client: ref.client, path: { handle: "@demo" }, query: { pageSize: 2 } });
    expect(first.data!.map((i) => i.slug)).toEqual(["img-4", "img-3"]);
    expect(first.hasNextPage).toBe(true);
    expect(first.totalCount).toBe(5);
    const last = await listAppImages({ client: ref.client, path: { handle: "@demo" }, query: { pageSize: 2, page: 2 } });
    expect(last.data!.map((i) => i.slug)).toEqual(["img-0"]);
    expect(last.hasNextPage).toBe(false);
  });

  test("archived: listed nowhere by default, refuses releases and installs; restored whole", async () => {
    await deployed();
    const archived = await archiveAppImage({ client: ref.client, path: { handle: "@demo", slug: "notes" } });
    expect(archived.data?.archived_at).toEqual(expect.any(String));
    expect((await listAppImages({ client: ref.client, path: { handle: "@demo" } })).data).toEqual([]);
    expect((await listAppImages({ client: ref.client, path: { handle: "@demo" }, query: { archived: "true" } })).data!.map((i) => i.slug)).toEqual(["notes"]);
    expect(
      (await startAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes" }, body: { files: describeFiles(FILES) } })).error?.status,
    ).toBe(409);
    expect((await createApp({ client: ref.client, path: { handle: "@demo" }, body: { image: { handle: "@demo", slug: "notes" } } })).error?.status).toBe(409);

    const restored = await restoreAppImage({ client: ref.client, path: { handle: "@demo", slug: "notes" } });
    expect(restored.data).toMatchObject({ archived_at: null, current_release: 1, release_count: 1 });
    expect((await createApp({ client: ref.client, path: { handle: "@demo" }, body: { image: { handle: "@demo", slug: "notes" } } })).response?.status).toBe(
      201,
    );
  });
});

describe("a release", () => {
  test("files of several sizes go to their presigned URLs with their headers; publish serves them", async () => {
    await newImage();
    const started = await startRelease();
    expect(started.number).toBe(1);
    expect(started.expires_in).toBe(900);
    expect(started.uploads.map((u) => u.name)).toEqual(Object.keys(FILES));
    for (const upload of started.uploads) {
      expect(upload.url).toMatch(/^https:\/\/reduck\.ai\/__sandbox\/uploads\/[0-9a-f]{48}$/);
      expect(Object.keys(upload.headers).sort()).toEqual(["content-type", "x-amz-checksum-sha256"]);
    }
    expect(new Set(started.uploads.map((u) => u.url)).size).toBe(started.uploads.length);

    // Nothing is served before publishing.
    const before = await getAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 1 } });
    expect(before.data).toMatchObject({ number: 1, published_at: null, current: false, asset_count: 5 });

    await uploadAll(started);
    const published = await publishAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 1 } });
    expect(published.data).toMatchObject({
      current_release: 1,
      release_count: 1,
      config_defaults: { brand: "Acme", columns: 3 },
      api_grant: { "api.notion.com": { Authorization: "Bearer ${NOTION_TOKEN}" } },
      manifest: {
        secrets: [
          { name: "NOTION_TOKEN", label: "Notion token", description: "From notion.so/my-integrations", required: true, page: false },
          { name: "SLACK_HOOK", label: "SLACK_HOOK", description: "", required: false, page: false },
        ],
        hooks: { init: "setup", newUser: null },
        scripts: ["reduck/mail.google.com/send_email"],
      },
    });

    const release = await getAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 1 } });
    expect(release.data).toMatchObject({ number: 1, current: true, deployed_by: "@demo", published_at: expect.any(String), schema_sha: null });
    expect(release.data!.assets.map((a) => [a.name, a.size])).toEqual(Object.entries(FILES).map(([n, b]) => [n, b.byteLength]));
    expect(release.data!.tools).toEqual([
      { task: "add_note", description: "Adds a note to the board.", inputSchema: TOOLS[0]!.inputSchema, outputSchema: null },
    ]);

    // The served bytes are the uploaded ones.
    for (const [name, bytes] of Object.entries(FILES)) {
      const served = await fetch(`https://reduck.ai/__sandbox/releases/@demo/notes/1/${name}`, asOwner());
      expect(served.status, name).toBe(200);
      expect(sha256(new Uint8Array(await served.arrayBuffer())), name).toBe(sha256(bytes));
    }

    const releases = await listAppImageReleases({ client: ref.client, path: { handle: "@demo", slug: "notes" } });
    expect(releases.data).toEqual([{ number: 1, created_at: expect.any(String), asset_count: 5, current: true, published_at: expect.any(String) }]);
    expect(releases.hasNextPage).toBe(false);
  });

  test("publishing twice answers the same way", async () => {
    const number = await deployed();
    const path = { handle: "@demo", slug: "notes", releaseNumber: number };
    const again = await publishAppImageRelease({ client: ref.client, path });
    const third = await publishAppImageRelease({ client: ref.client, path });
    expect(again.response?.status).toBe(200);
    expect(third.data).toEqual(again.data);
    expect(again.data).toMatchObject({ current_release: 1, release_count: 1 });
  });

  test("publish before every file arrived: 409 naming the missing ones; then, once they arrive, it publishes", async () => {
    await newImage();
    const started = await startRelease();
    const [first, ...rest] = started.uploads;
    expect((await put(first!, FILES[first!.name]!)).status).toBe(200);
    const early = await publishAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 1 } });
    expect(early.error?.status).toBe(409);
    expect(early.error?.error).toContain("4 of the 5 files");
    expect(early.error?.error).toContain("assets/logo.png");
    for (const upload of rest) expect((await put(upload, FILES[upload.name]!)).status).toBe(200);
    expect((await publishAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 1 } })).data?.current_release).toBe(1);
  });

  test("a URL takes one upload: the second is refused (409) and the first's bytes stay", async () => {
    await newImage();
    const started = await startRelease();
    const upload = started.uploads.find((u) => u.name === "index.html")!;
    expect((await put(upload, FILES["index.html"]!)).status).toBe(200);
    const reused = await put(upload, FILES["index.html"]!);
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as { error: string }).error).toMatch(/already used/);
  });

  test("a URL expires after expires_in seconds (403), and a failed upload does not use it up", async () => {
    await newImage();
    const started = await startRelease();
    const upload = started.uploads.find((u) => u.name === "app.js")!;
    // A failed upload (wrong bytes) leaves the URL usable until it expires.
    expect((await put(upload, fileOf(70_000, 9))).status).toBe(400);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + started.expires_in * 1000 - 1000 });
    expect((await put(upload, FILES["app.js"]!)).status).toBe(200);

    const other = started.uploads.find((u) => u.name === "index.html")!;
    vi.setSystemTime(Date.now() + 2000);
    const expired = await put(other, FILES["index.html"]!);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: string }).error).toMatch(/expired/);
  });

  test("wrong SHA-256, wrong size, a missing or altered header: 400 saying which, and nothing is kept", async () => {
    await newImage();
    const started = await startRelease();
    const upload = started.uploads.find((u) => u.name === "app.js")!;
    const bytes = FILES["app.js"]!;
    const altered = bytes.slice();
    altered[10] = altered[10]! ^ 1;

    const answers = {
      sha: await put(upload, altered),
      short: await put(upload, bytes.subarray(0, 1000)),
      long: await put(upload, new Uint8Array([...bytes, 1])),
      noChecksum: await put(upload, bytes, { "content-type": upload.headers["content-type"]! }),
      noType: await put(upload, bytes, { "x-amz-checksum-sha256": upload.headers["x-amz-checksum-sha256"]! }),
      otherType: await put(upload, bytes, { ...upload.headers, "content-type": "text/plain" }),
    };
    const errors: Record<string, string> = {};
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.status, what).toBe(400);
      errors[what] = ((await answer.json()) as { error: string }).error;
    }
    expect(errors.sha).toMatch(/SHA-256/);
    expect(errors.short).toMatch(/1000 bytes, but the release declared 70000/);
    expect(errors.long).toMatch(/70001 bytes|past the 70000 bytes/);
    expect(errors.noChecksum).toMatch(/lacks the header x-amz-checksum-sha256/);
    expect(errors.noType).toMatch(/content-type/);
    expect(errors.otherType).toMatch(/content-type: text\/plain/);

    const early = await publishAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 1 } });
    expect(early.error?.error).toContain("app.js");
    expect((await put(upload, bytes)).status).toBe(200);
  });

  test("an unknown upload URL: 404", async () => {
    const answer = await fetch(`https://reduck.ai/__sandbox/uploads/${"0".repeat(48)}`, { method: "PUT", body: "x" });
    expect(answer.status).toBe(404);
  });

  test("the service's limits: at most 256 files, each at most 64 MiB, names as described; one name twice", async () => {
    await newImage();
    const path = { handle: "@demo", slug: "notes" };
    const one = (name: string, size = 1) => ({ name, size, sha256: "0".repeat(64) });
    const tooMany = await startAppImageRelease({ client: ref.client, path, body: { files: Array.from({ length: 257 }, (_, i) => one(`f${i}.txt`)) } });
    expect(tooMany.error?.status).toBe(400);
    const enough = await startAppImageRelease({ client: ref.client, path, body: { files: Array.from({ length: 256 }, (_, i) => one(`f${i}.txt`)) } });
    expect(enough.data?.uploads).toHaveLength(256);
    expect((await startAppImageRelease({ client: ref.client, path, body: { files: [one("big.bin", 64 * 2 ** 20 + 1)] } })).error?.status).toBe(400);
    expect((await startAppImageRelease({ client: ref.client, path, body: { files: [one("big.bin", 64 * 2 ** 20)] } })).response?.status).toBe(201);
    expect((await startAppImageRelease({ client: ref.client, path, body: { files: [one("../up.txt")] } })).error?.status).toBe(400);
    const twice = await startAppImageRelease({ client: ref.client, path, body: { files: [one("a.txt"), one("a.txt")] } });
    expect(twice.error?.status).toBe(400);
    expect(twice.error?.variables?.["files.1.name"]?.[0]).toMatch(/already files\.0/);
  });

  test("rollback serves an earlier release, and only a published one", async () => {
    await deployed();
    const second = await startRelease({ "index.html": new TextEncoder().encode("v2") });
    await uploadAll(second, { "index.html": new TextEncoder().encode("v2") });
    await publishAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 2 } });
    const third = await startRelease({ "index.html": new TextEncoder().encode("v3") });

    const path = { handle: "@demo", slug: "notes" };
    expect((await rollbackAppImage({ client: ref.client, path, body: { release: 1 } })).data?.current_release).toBe(1);
    expect((await rollbackAppImage({ client: ref.client, path, body: { release: third.number } })).error?.status).toBe(409);
    expect((await rollbackAppImage({ client: ref.client, path, body: { release: 9 } })).error?.status).toBe(404);
    expect((await rollbackAppImage({ client: ref.client, path, body: { release: 2 } })).data?.current_release).toBe(2);
    const releases = await listAppImageReleases({ client: ref.client, path, query: { pageSize: 2 } });
    expect(releases.data!.map((r) => [r.number, r.current, r.published_at !== null])).toEqual([
      [3, false, false],
      [2, true, true],
    ]);
    expect(releases.hasNextPage).toBe(true);
  });
});

describe("installed apps", () => {
  async function installed(secrets?: Record<string, string>) {
    await deployed();
    const { data, error, response } = await createApp({
      client: ref.client,
      path: { handle: "@demo" },
      body: { image: { handle: "@demo", slug: "notes" }, name: "My notes", config: { columns: 4 }, secrets },
    });
    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response?.status).toBe(201);
    return data!;
  }

  test("installed from an image with config over its defaults; read, listed, renamed, uninstalled", async () => {
    const app = await installed();
    expect(app).toMatchObject({
      name: "My notes",
      owner: { kind: "user", handle: "@demo" },
      image: { handle: "@demo", slug: "notes", name: "Notes", current_release: 1 },
      current_release: 1,
      config: { brand: "Acme", columns: 4 },
      api_grant: { "api.notion.com": { Authorization: "Bearer ${NOTION_TOKEN}" } },
      secrets: [],
      release_count: 1,
      pending_decisions: 0,
    });
    expect((await getApp({ client: ref.client, path: { handle: "@demo", appId: app.id } })).data?.id).toBe(app.id);
    const listed = await listApps({ client: ref.client, path: { handle: "@demo" } });
    expect(listed.data!.map((a) => a.id)).toEqual([app.id]);
    expect(listed.hasNextPage).toBe(false);
    const all = await listAllApps({ client: ref.client });
    expect(all.data!.map((a) => a.id)).toEqual([app.id]);
    expect(all.hasNextPage).toBe(false);
    expect((await getAppImage({ client: ref.client, path: { handle: "@demo", slug: "notes" } })).data?.install_count).toBe(1);

    expect((await updateApp({ client: ref.client, path: { handle: "@demo", appId: app.id }, body: { name: "Renamed" } })).data?.name).toBe("Renamed");
    expect((await uninstallApp({ client: ref.client, path: { handle: "@demo", appId: app.id } })).response?.status).toBe(204);
    expect((await getApp({ client: ref.client, path: { handle: "@demo", appId: app.id } })).error?.status).toBe(404);
  });

  test("the app serves its image's release, follows a publish and a rollback, and says so in its updates", async () => {
    const app = await installed();
    const page = await fetch(`https://reduck.ai/app/${app.id}/`, asOwner());
    expect(await page.text()).toBe(new TextDecoder().decode(FILES["index.html"]));

    const v2 = { "index.html": new TextEncoder().encode("second") };
    await uploadAll(await startRelease(v2), v2);
    await publishAppImageRelease({ client: ref.client, path: { handle: "@demo", slug: "notes", releaseNumber: 2 } });
    expect((await getApp({ client: ref.client, path: { handle: "@demo", appId: app.id } })).data?.current_release).toBe(2);
    expect(await (await fetch(`https://reduck.ai/app/${app.id}/index.html`, asOwner())).text()).toBe("second");
    await startRelease(v2); // release 3, never published

    const updates = await listAppUpdates({ client: ref.client, path: { handle: "@demo", appId: app.id } });
    expect(updates.data!.map((u) => [u.version, u.status, u.published_at !== null])).toEqual([
      [3, "pending", false],
      [2, "installed", true],
      [1, "installed", true],
    ]);
    expect(updates.hasNextPage).toBe(false);
    await rollbackAppImage({ client: ref.client, path: { handle: "@demo", slug: "notes" }, body: { release: 1 } });
    expect((await getApp({ client: ref.client, path: { handle: "@demo", appId: app.id } })).data?.current_release).toBe(1);
  });

  test("tools are those of the release the app serves", async () => {
    const app = await installed();
    const tools = await getAppTools({ client: ref.client, path: { handle: "@demo", appId: app.id } });
    expect(tools.data).toEqual({
      tools: [{ task: "add_note", description: "Adds a note to the board.", inputSchema: TOOLS[0]!.inputSchema, outputSchema: null }],
    });
  });

  test("secrets: set at install and later, listed by name only, never echoed back; closed to the page until opened", async () => {
    const app = await installed({ NOTION_TOKEN: "secret_install_value" });
    expect(JSON.stringify(app)).not.toContain("secret_install_value");
    expect(app.secrets).toEqual([{ name: "NOTION_TOKEN", required: true, pageUsable: false }]);

    const path = { handle: "@demo", appId: app.id };
    const changed = await updateAppSecrets({
      client: ref.client,
      path,
      body: {
        secrets: {
          SLACK_HOOK: { value: "https://hooks.example/secret_hook", pageUsable: true },
          EXTRA: "secret_extra",
          NOTION_TOKEN: { pageUsable: true },
          NEVER_SET: { pageUsable: true },
        },
      },
    });
    expect(changed.data?.secrets).toEqual([
      { name: "EXTRA", required: false, pageUsable: false },
      { name: "NOTION_TOKEN", required: true, pageUsable: true },
      { name: "SLACK_HOOK", required: false, pageUsable: true },
    ]);
    const read = await getAppSecrets({ client: ref.client, path });
    expect(read.data).toEqual(changed.data);
    const removed = await updateAppSecrets({ client: ref.client, path, body: { secrets: { EXTRA: null, NOTION_TOKEN: "secret_new_value" } } });
    expect(removed.data?.secrets.map((s) => [s.name, s.pageUsable])).toEqual([
      ["NOTION_TOKEN", true],
      ["SLACK_HOOK", true],
    ]);
    for (const answer of [changed, read, removed, await getApp({ client: ref.client, path })]) {
      expect(await answer.response!.clone().text()).not.toMatch(/secret_|hooks\.example/);
    }
    expect((await updateAppSecrets({ client: ref.client, path, body: { secrets: { "bad-name": "x" } } })).error?.status).toBe(400);
  });

  test("no sealing key: writing a secret is 503, installing with one is 400, nothing changes", async () => {
    const app = await installed({ NOTION_TOKEN: "secret_value" });
    ref.store.sealingKey = null;
    const path = { handle: "@demo", appId: app.id };
    const refused = await updateAppSecrets({ client: ref.client, path, body: { secrets: { NOTION_TOKEN: null, OTHER: "x" } } });
    expect(refused.error?.status).toBe(503);
    expect(refused.error?.error).toMatch(/sealing key/);
    expect((await getAppSecrets({ client: ref.client, path })).data?.secrets.map((s) => s.name)).toEqual(["NOTION_TOKEN"]);
    const install = await createApp({
      client: ref.client,
      path: { handle: "@demo" },
      body: { image: { handle: "@demo", slug: "notes" }, secrets: { NOTION_TOKEN: "x" } },
    });
    expect(install.error?.status).toBe(400);
    expect(install.error?.variables?.secrets?.[0]).toMatch(/sealing key/);
    expect((await createApp({ client: ref.client, path: { handle: "@demo" }, body: { image: { handle: "@demo", slug: "notes" } } })).response?.status).toBe(
      201,
    );
  });

  test("an image with nothing published cannot be installed (409); a public image of another scope can", async () => {
    await newImage();
    expect((await createApp({ client: ref.client, path: { handle: "@demo" }, body: { image: { handle: "@demo", slug: "notes" } } })).error?.status).toBe(409);
    const guestbook = await createApp({ client: ref.client, path: { handle: "@demo" }, body: { image: { handle: "reduck", slug: "guestbook" } } });
    expect(guestbook.data).toMatchObject({ name: "Guestbook", image: { handle: "reduck", slug: "guestbook" }, config: { title: "Guestbook" } });
    expect(await (await fetch(`https://reduck.ai/app/${guestbook.data!.id}`, asOwner())).text()).toContain("<title>Guestbook</title>");
  });
});

describe("who may do what", () => {
  test("an account without the early-access feature: 403 with the service's words, on every kind of call", async () => {
    const casey = ref.clientWith({ apiKey: ref.store.demo.noAppsApiKey });
    const answers = [
      await listAllApps({ client: casey }),
      await listAppImages({ client: casey, path: { handle: "@casey" } }),
      await createAppImage({ client: casey, path: { handle: "@casey" }, body: { slug: "x", name: "X" } }),
      await getAppImage({ client: casey, path: { handle: "reduck", slug: "guestbook" } }),
    ];
    for (const { error } of answers) {
      expect(error?.status).toBe(403);
      expect(error?.error).toContain(EARLY_ACCESS_WORDS);
    }
    expect(EARLY_ACCESS_WORDS).toBe("Request early access at https://form.reduck.ai or contact Reduck at contact@reduck.ai");
    // The catalogue alone needs no account, so it needs no early access either.
    expect((await listAllAppImages({ client: casey, query: { catalogueOnly: "true" } })).data!.map((i) => i.slug)).toEqual(["guestbook"]);
  });

  test("a token without app:write may read but not change (403); one without app:read may not read", async () => {
    await deployed();
    const reader = ref.clientWith({ oauthToken: ref.store.addOAuthToken({ userId: ref.store.demo.userId, scopes: ["app:read"] }) });
    expect((await getAppImage({ client: reader, path: { handle: "@demo", slug: "notes" } })).data?.slug).toBe("notes");
    const write = await createAppImage({ client: reader, path: { handle: "@demo" }, body: { slug: "other", name: "Other" } });
    expect(write.error?.status).toBe(403);
    expect(write.error?.error).toContain('"app:write"');
    const none = await listAllApps({ client: ref.clientWith({ oauthToken: ref.store.demo.readOnlyToken }) });
    expect(none.error?.status).toBe(403);
    expect(none.error?.error).toContain('"app:read"');
  });

  test("apps of a scope you are not in answer like an unknown handle (404); a private image too; a read-only member may not change", async () => {
    await deployed();
    const app = (await createApp({ client: ref.client, path: { handle: "@demo" }, body: { image: { handle: "@demo", slug: "notes" } } })).data!;
    const alice = ref.clientWith({ apiKey: ref.store.demo.otherUserApiKey });
    expect((await listApps({ client: alice, path: { handle: "@demo" } })).error?.status).toBe(404);
    expect((await listApps({ client: alice, path: { handle: "@nobody" } })).error?.status).toBe(404);
    expect((await getApp({ client: alice, path: { handle: "@demo", appId: app.id } })).error?.status).toBe(404);
    expect((await getApp({ client: alice, path: { handle: "@alice", appId: app.id } })).error?.status).toBe(404);
    expect((await getAppImage({ client: alice, path: { handle: "@demo", slug: "notes" } })).error?.status).toBe(404);
    expect((await listAllApps({ client: alice })).data).toEqual([]);
    // demo is a viewer of the partners project: may list its apps, may not install there.
    expect((await listApps({ client: ref.client, path: { handle: "partners" } })).data).toEqual([]);
    const install = await createApp({ client: ref.client, path: { handle: "partners" }, body: { image: { handle: "@demo", slug: "notes" } } });
    expect(install.error?.status).toBe(403);
  });
});
