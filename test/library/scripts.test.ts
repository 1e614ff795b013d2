import { describe, expect, test } from "vitest";
import {
  listAllScripts,
  listScripts,
  getScript,
  createScript,
  patchScript,
  publishScript,
  unpublishScript,
  archiveScript,
  restoreScript,
} from "../../src/index.js";
import { useSandboxClient } from "../support/sandbox-client.js";

const ref = useSandboxClient({ fresh: true });
const mine = (slug: string) => ({ handle: "@demo", host: "shop.example", slug });
const newScript = (slug: string, extra: Record<string, unknown> = {}) => ({
  host: "shop.example",
  slug,
  description: "Reads the basket total",
  content: "return { total: 1 };",
  input_schema: { type: "object", properties: {} },
  output_schema: { type: "object", properties: { total: { type: "number" } } },
  side_effects: "none" as const,
  ...extra,
});

describe("listing", () => {
  test("listAllScripts spans own, project and catalogue scripts", async () => {
    const { data, hasNextPage, totalCount } = await listAllScripts({ client: ref.client, query: { pageSize: 100 } });
    const owners = new Set(data!.map((s) => s.author.handle));
    expect(owners).toEqual(new Set(["@demo", "acme", "partners", "reduck"]));
    expect(hasNextPage).toBe(false);
    expect(totalCount).toBe(data!.length);
  });

  test("listAllScripts filters by host and search", async () => {
    const { data } = await listAllScripts({ client: ref.client, query: { host: "mail.google.com", q: "send" } });
    expect(data!.map((s) => s.slug)).toContain("send_email");
    expect(data!.every((s) => s.host === "mail.google.com")).toBe(true);
  });

  test("listScripts of another user shows only their public scripts", async () => {
    const { data } = await listScripts({ client: ref.client, path: { handle: "@alice" } });
    expect(data!.map((s) => s.slug)).toEqual(["public_search"]);
  });

  test("listScripts of an unknown handle is a 404", async () => {
    const { error } = await listScripts({ client: ref.client, path: { handle: "@nobody-here" } });
    expect(error).toMatchObject({ kind: "http", status: 404 });
  });

  test("listAllScripts without a valid credential is refused", async () => {
    const { error, hasNextPage } = await listAllScripts({ client: ref.clientWith({ apiKey: "bad" }) });
    expect(error?.status).toBe(401);
    expect(hasNextPage).toBe(false);
  });
});

describe("reading", () => {
  test("getScript reads the catalogue's contract, without the official source", async () => {
    const { data } = await getScript({ client: ref.client, path: { handle: "reduck", host: "mail.google.com", slug: "send_email" } });
    const version = data!.current_version as { input_schema: any; content?: string };
    expect(version.input_schema.properties.attachment).toMatchObject({ type: "string", format: "file" });
    expect(version.input_schema.required).toEqual(["to", "subject"]);
    expect(version.content).toBeUndefined();
  });

  test("another user's private script is not found", async () => {
    const { error } = await getScript({ client: ref.client, path: { handle: "@alice", host: "example.com", slug: "secret_notes" } });
    expect(error?.status).toBe(404);
  });
});

describe("the lifecycle", () => {
  test("create, patch, publish, unpublish, archive, restore", async () => {
    const created = await createScript({ client: ref.client, path: { handle: "@demo" }, body: newScript("basket_total") });
    expect(created.error).toBeUndefined();
    expect(created.response?.status).toBe(201);
    expect(created.data!.current_version_id).toBe(created.data!.created_version_id);

    const patched = await patchScript({ client: ref.client, path: mine("basket_total"), body: { name: "Basket total" } });
    expect(patched.data?.name).toBe("Basket total");

    expect((await publishScript({ client: ref.client, path: mine("basket_total") })).data?.visibility).toBe("public");
    expect((await unpublishScript({ client: ref.client, path: mine("basket_total") })).data?.visibility).toBe("private");
    expect((await archiveScript({ client: ref.client, path: mine("basket_total") })).data?.archived_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const archivedPublish = await publishScript({ client: ref.client, path: mine("basket_total") });
    expect(archivedPublish.error?.status).toBe(409);
    expect((await restoreScript({ client: ref.client, path: mine("basket_total") })).data?.archived_at).toBeNull();
  });

  test("a draft first version has no current version, and publishing it is a 409", async () => {
    const created = await createScript({ client: ref.client, path: { handle: "@demo" }, body: newScript("drafty", { draft: true }) });
    expect(created.data?.current_version_id).toBeNull();
    const { error } = await publishScript({ client: ref.client, path: mine("drafty") });
    expect(error).toMatchObject({ kind: "http", status: 409 });
  });

  test("a draft asked for alongside public visibility is a 409", async () => {
    const { error } = await createScript({ client: ref.client, path: { handle: "@demo" }, body: newScript("x", { draft: true, visibility: "public" }) });
    expect(error?.status).toBe(409);
  });

  test("the same host and slug twice is a 409, even once archived", async () => {
    await createScript({ client: ref.client, path: { handle: "@demo" }, body: newScript("twice") });
    await archiveScript({ client: ref.client, path: mine("twice") });
    const { error } = await createScript({ client: ref.client, path: { handle: "@demo" }, body: newScript("twice") });
    expect(error?.status).toBe(409);
  });

  test("a malformed script is a 400 with per-field messages", async () => {
    const { error } = await createScript({ client: ref.client, path: { handle: "@demo" }, body: newScript("Not A Slug!") });
    expect(error?.status).toBe(400);
    expect(error?.variables?.slug?.length).toBeGreaterThan(0);
  });

  test("official scripts are write-locked", async () => {
    const path = { handle: "reduck", host: "mail.google.com", slug: "send_email" };
    expect((await patchScript({ client: ref.client, path, body: { name: "Mine now" } })).error?.status).toBe(403);
    expect((await archiveScript({ client: ref.client, path })).error?.status).toBe(403);
    expect((await unpublishScript({ client: ref.client, path })).error?.status).toBe(403);
    expect((await restoreScript({ client: ref.client, path })).error?.status).toBe(403);
    expect((await createScript({ client: ref.client, path: { handle: "reduck" }, body: newScript("mine") })).error?.status).toBe(403);
  });
});
