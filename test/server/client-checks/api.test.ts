// The sandbox against the behaviour the hosted service documents. Plain fetch calls, so
// these tests hold the server to openapi.json independently of the client library. Set-up in api-fixture.ts.
import { describe, expect, it } from "vitest";
import { operationTable } from "reduck-client";
import { compareRoutes } from "../api/routing.js";
import { operationSpecs } from "../contract/openapi.js";
import { NOT_AUTHENTICATED } from "../api/auth.js";
import { SEED_IDS } from "../index.js";
import { sandbox, call, newScript, useApiFixture } from "./api-fixture.js";

useApiFixture();

describe("routing", () => {
  it("serves every operation of operationTable with the same method and path", () => {
    const served = new Map(operationSpecs().map((s) => [s.operationId, `${s.method} ${s.path}`]));
    for (const [id, op] of Object.entries(operationTable)) {
      expect(served.get(id as never), id).toBe(`${op.method} ${op.path}`);
    }
  });

  it("tries literal segments before parameters, so readme beats a slug", async () => {
    expect(compareRoutes("/api/scripts/{handle}/{host}/readme", "/api/scripts/{handle}/{host}/{slug}")).toBeLessThan(0);
    const readme = await call("GET", "/api/scripts/reduck/mail.google.com/readme", { key: null });
    expect(readme.status).toBe(200);
    expect(readme.body).toMatchObject({ host: "mail.google.com" });
  });

  it("decodes path parameters (%40demo is @demo)", async () => {
    const script = await call("GET", "/api/scripts/%40demo/example.com/get_title");
    expect(script.status).toBe(200);
    expect(script.body.author.handle).toBe("@demo");
  });

  it("answers open endpoints without any credential", async () => {
    expect(await call("GET", "/api/ping", { key: null })).toEqual({ status: 200, body: { message: "pong" } });
    const version = await call("GET", "/api/version", { key: null });
    expect(version.status).toBe(200);
    expect(version.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("authentication", () => {
  it("refuses a request without a credential", async () => {
    expect(await call("GET", "/api/me", { key: null })).toEqual({ status: 401, body: { error: NOT_AUTHENTICATED } });
  });

  it("refuses an unknown API key", async () => {
    expect(await call("GET", "/api/me", { key: "rk_nope" })).toEqual({ status: 401, body: { error: "Invalid API key" } });
  });

  it("accepts an OAuth token issued for this API", async () => {
    const me = await call("GET", "/api/me", { token: sandbox.store.demo.oauthToken });
    expect(me.status).toBe(200);
    expect(me.body.handle).toBe("@demo");
  });

  it("refuses a token issued for the MCP server, saying how to get the right one", async () => {
    const answer = await call("GET", "/api/me", { token: sandbox.store.demo.mcpToken });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatch(/issued for the Reduck MCP server/);
    expect(answer.body.error).toMatch(/resource https:\/\/reduck\.ai/);
  });

  it("refuses an unknown bearer token", async () => {
    expect((await call("GET", "/api/me", { token: "rat_nope" })).status).toBe(401);
  });

  it("refuses a token without the operation's scope, naming the scope", async () => {
    const answer = await call("POST", "/api/scripts/@demo", { token: sandbox.store.demo.readOnlyToken, body: newScript() });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toContain('"script:write"');
    expect((await call("GET", "/api/scripts", { token: sandbox.store.demo.readOnlyToken })).status).toBe(200);
    expect((await call("GET", "/api/runs", { token: sandbox.store.demo.readOnlyToken })).body.error).toContain('"run:read"');
  });

  it("refuses a wrong credential even where anonymous callers are welcome", async () => {
    expect((await call("GET", "/api/scripts", { key: "rk_nope" })).status).toBe(401);
  });

  it("gives anonymous callers the official catalogue only", async () => {
    const all = await call("GET", "/api/scripts?pageSize=100", { key: null });
    expect(all.status).toBe(200);
    expect(all.body.totalCount).toBe(10);
    expect(all.body.data.every((s: { author: { handle: string; approval: string } }) => s.author.handle === "reduck" && s.author.approval === "official")).toBe(
      true,
    );
  });
});

describe("authorization", () => {
  it("hides another user's private script as not found", async () => {
    expect((await call("GET", "/api/scripts/@alice/example.com/secret_notes")).status).toBe(404);
    expect((await call("GET", "/api/scripts/@alice/example.com/secret_notes", { key: sandbox.store.demo.otherUserApiKey })).status).toBe(200);
    expect((await call("PATCH", "/api/scripts/@alice/example.com/secret_notes", { body: { name: "Mine" } })).status).toBe(404);
  });

  it("shows public scripts to everyone, anonymous included", async () => {
    expect((await call("GET", "/api/scripts/@alice/example.com/public_search")).status).toBe(200);
    expect((await call("GET", "/api/scripts/@alice/example.com/public_search", { key: null })).status).toBe(200);
    const listing = await call("GET", "/api/scripts/@alice");
    expect(listing.body.data.map((s: { slug: string }) => s.slug)).toEqual(["public_search"]);
  });

  it("write-locks the official catalogue and hides its code and notes from non-members", async () => {
    const path = "/api/scripts/reduck/mail.google.com/send_email";
    const script = await call("GET", path);
    expect(script.status).toBe(200);
    expect(script.body.current_version).not.toHaveProperty("content");
    expect(script.body.current_version).not.toHaveProperty("note");
    expect(script.body.current_version.input_schema.properties.attachment).toMatchObject({ type: "string", format: "file" });
    for (const [method, suffix, body] of [
      ["PATCH", "", { name: "Mine" }],
      ["POST", "/archive", undefined],
      ["POST", "/versions", { note: "Try", content: "return 1;" }],
    ] as const) {
      const answer = await call(method, path + suffix, { body });
      expect(answer.status, `${method} ${suffix}`).toBe(403);
      expect(answer.body.error).toMatch(/write-locked/);
    }
  });

  it("lets project members read project scripts, and viewers only read", async () => {
    expect((await call("GET", "/api/scripts/acme/crm.acme.test/export_contacts")).status).toBe(200);
    expect((await call("GET", "/api/scripts/partners/partner.example/list_orders")).status).toBe(200);
    expect((await call("PATCH", "/api/scripts/partners/partner.example/list_orders", { body: { name: "x" } })).status).toBe(403);
    expect((await call("POST", "/api/scripts/partners", { body: newScript() })).status).toBe(403);
  });

  it("keeps runs private to their account", async () => {
    expect((await call("GET", `/api/runs/${SEED_IDS.runs.alice}`)).status).toBe(404);
    expect((await call("GET", `/api/runs/${SEED_IDS.runs.success}`)).status).toBe(200);
  });
});

describe("validation", () => {
  it("answers 400 with per-field messages", async () => {
    const answer = await call("POST", "/api/scripts/@demo", { body: newScript({ slug: "Bad Slug" }) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Invalid request");
    expect(Object.keys(answer.body.variables)).toEqual(["slug"]);
    expect(answer.body.variables.slug[0]).toMatch(/pattern/);
  });

  it("names every missing field", async () => {
    const answer = await call("POST", "/api/scripts/@demo", { body: { host: "example.org", slug: "ok" } });
    expect(answer.status).toBe(400);
    expect(answer.body.variables).toMatchObject({ description: ["is required"], content: ["is required"], side_effects: ["is required"] });
  });

  it("refuses a body that is not JSON", async () => {
    const answer = await call("PATCH", "/api/scripts/@demo/example.com/get_title", { raw: "{name:" });
    expect(answer.status).toBe(400);
    expect(answer.body.variables.body[0]).toMatch(/not valid JSON/);
  });

  it("checks array bounds (batch delete of zero runs)", async () => {
    const answer = await call("POST", "/api/runs/delete", { body: { runIds: [] } });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.variables)).toEqual(["runIds"]);
  });

  it("answers 404, not an undeclared 400, for a malformed id where openapi.json declares no 400", async () => {
    expect((await call("GET", "/api/runs/not-a-uuid")).status).toBe(404);
    const declared = await call("DELETE", "/api/runs/not-a-uuid");
    expect(declared).toEqual({ status: 400, body: { error: "Invalid request", variables: { runId: ["must be a UUID"] } } });
  });

  it("clamps page parameters of list operations, which declare no 400 (pageSize=0 reads as 1)", async () => {
    const answer = await call("GET", "/api/runs?pageSize=0");
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(1);
    expect((await call("GET", "/api/runs?pageSize=500")).body.data).toHaveLength(6);
    expect((await call("GET", "/api/runs?status=exploded")).body.totalCount).toBe(6);
  });
});

describe("pagination", () => {
  it("pages from 0 with totals", async () => {
    for (let i = 0; i < 45; i++) sandbox.store.addRun({ status: "success" });
    const first = await call("GET", "/api/runs?pageSize=20");
    expect(first.body).toMatchObject({ hasNextPage: true, totalCount: 51 });
    expect(first.body.data).toHaveLength(20);
    const last = await call("GET", "/api/runs?page=2&pageSize=20");
    expect(last.body).toMatchObject({ hasNextPage: false, totalCount: 51 });
    expect(last.body.data).toHaveLength(11);
    const beyond = await call("GET", "/api/runs?page=9");
    expect(beyond.body).toMatchObject({ data: [], hasNextPage: false, totalCount: 51 });
  });

  it("defaults to 20 per page and lists runs newest first", async () => {
    for (let i = 0; i < 25; i++) sandbox.store.addRun();
    const page = await call("GET", "/api/runs");
    expect(page.body.data).toHaveLength(20);
    const started = page.body.data.map((r: { started_at: string }) => r.started_at);
    expect([...started].sort().reverse()).toEqual(started);
  });

  it("filters runs by status, script and host", async () => {
    expect((await call("GET", "/api/runs?status=running")).body.data.map((r: { id: string }) => r.id)).toEqual([SEED_IDS.runs.running]);
    expect((await call("GET", `/api/runs?script_id=${SEED_IDS.scripts.getTitle}`)).body.totalCount).toBe(5);
    expect((await call("GET", "/api/runs?host=google")).body.totalCount).toBe(1);
  });
});

describe("script listings", () => {
  it("lists own, project and catalogue scripts for a signed-in caller, active only by default", async () => {
    const all = await call("GET", "/api/scripts?pageSize=100");
    const addresses = all.body.data.map((s: { author: { handle: string }; host: string; slug: string }) => `${s.author.handle}/${s.host}/${s.slug}`);
    expect(addresses).toContain("@demo/example.com/get_title");
    expect(addresses).toContain("acme/crm.acme.test/export_contacts");
    expect(addresses).toContain("partners/partner.example/list_orders");
    expect(addresses).toContain("reduck/mail.google.com/send_email");
    expect(addresses).not.toContain("@demo/example.com/old_scraper");
    expect(addresses).not.toContain("@alice/example.com/public_search");
    expect(all.body.data[0]).not.toHaveProperty("current_version.content");
    const archived = await call("GET", "/api/scripts?archived=true");
    expect(archived.body.data.map((s: { slug: string }) => s.slug)).toEqual(["old_scraper"]);
  });

  it("searches with q, filters host by substring and honours catalogueOnly and sortBy", async () => {
    const gmail = await call("GET", "/api/scripts?q=gmail%20email");
    expect(gmail.body.data[0].slug).toBe("send_email");
    const google = await call("GET", "/api/scripts?host=google&pageSize=100");
    expect(new Set(google.body.data.map((s: { host: string }) => s.host))).toEqual(new Set(["mail.google.com", "drive.google.com"]));
    expect((await call("GET", "/api/scripts?catalogueOnly=true&pageSize=100")).body.totalCount).toBe(10);
    const byHost = await call("GET", "/api/scripts?sortBy=host&order=desc&pageSize=100");
    const hosts = byHost.body.data.map((s: { host: string }) => s.host);
    expect(hosts[0]).toBe("wise.com");
    const byRuns = await call("GET", "/api/scripts?sortBy=runs&pageSize=1");
    expect(byRuns.body.data[0].slug).toBe("get_title");
  });

  it("lists one handle's scripts, archived included unless filtered, and 404s an unknown handle", async () => {
    const mine = await call("GET", "/api/scripts/@demo");
    expect(mine.body.totalCount).toBe(3);
    expect((await call("GET", "/api/scripts/@demo?archived=false")).body.totalCount).toBe(2);
    expect((await call("GET", "/api/scripts/@demo?visibility=public")).body.data.map((s: { slug: string }) => s.slug)).toEqual(["top_stories"]);
    expect((await call("GET", "/api/scripts/@demo?slug=get_title&status=degraded")).body.totalCount).toBe(1);
    expect((await call("GET", "/api/scripts/@nobody")).status).toBe(404);
  });
});
