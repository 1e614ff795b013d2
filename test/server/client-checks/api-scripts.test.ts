// The sandbox's API, continued from api.test.ts: the script lifecycle,
// transfer, readmes, runs, account, connectors and the response self-check.
import { describe, expect, it, vi } from "vitest";
import { validateResponse } from "../contract/openapi.js";
import { SEED_IDS } from "../index.js";
import { sandbox, call, newScript, useApiFixture } from "./api-fixture.js";

useApiFixture();

describe("script lifecycle", () => {
  const path = "/api/scripts/@demo/example.org/read_headline";

  it("creates, edits, versions, promotes, rolls back, publishes, archives and restores", async () => {
    const created = await call("POST", "/api/scripts/@demo", { body: newScript() });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      host: "example.org",
      slug: "read_headline",
      current_version_id: created.body.created_version_id,
      created_version_id: expect.any(String),
    });
    const v1 = created.body.created_version_id;

    const patched = await call("PATCH", path, { body: { name: "Read the headline", human_required: true } });
    expect(patched.body).toMatchObject({ name: "Read the headline", human_required: true, visibility: "private" });

    const draft = await call("POST", `${path}/versions`, { body: { note: "Read the h1", content: "return { headline: document.title };" } });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ draft: true, version_number: 2, parent_version_id: v1, note: "Read the h1" });
    expect(draft.body.diff.code).toContain("+return { headline: document.title };");
    expect(draft.body.diff.fields).toEqual({});
    const v2 = draft.body.id;

    const edited = await call("PATCH", `${path}/versions/${v2}`, { body: { side_effects: "write" } });
    expect(edited.body.diff.fields).toEqual({ side_effects: { from: "none", to: "write" } });

    const drafts = await call("GET", `${path}/versions?draft=true`);
    expect(drafts.body.data.map((v: { id: string }) => v.id)).toEqual([v2]);
    expect((await call("GET", `${path}`)).body.current_version_id).toBe(v1);

    const promoted = await call("POST", `${path}/versions/${v2}/promote`);
    expect(promoted.body).toMatchObject({ id: v2, draft: false, side_effects: "write" });
    expect((await call("GET", path)).body.current_version.id).toBe(v2);

    const rolledBack = await call("POST", `${path}/versions/${v1}/promote`);
    expect(rolledBack.status).toBe(200);
    expect((await call("GET", path)).body.current_version_id).toBe(v1);
    const versions = await call("GET", `${path}/versions`);
    expect(versions.body.data.map((v: { version_number: number }) => v.version_number)).toEqual([2, 1]);

    expect((await call("POST", `${path}/publish`)).body.visibility).toBe("public");
    expect((await call("GET", path, { key: null })).status).toBe(200);

    const archived = await call("POST", `${path}/archive`);
    expect(archived.body.archived_at).not.toBeNull();
    expect((await call("POST", `${path}/unpublish`)).body.visibility).toBe("private");
    const restored = await call("POST", `${path}/restore`);
    expect(restored.body.archived_at).toBeNull();
  });

  it("starts a draft-first script with no current version", async () => {
    const created = await call("POST", "/api/scripts/@demo", { body: newScript({ draft: true }) });
    expect(created.status).toBe(201);
    expect(created.body.current_version_id).toBeNull();
    const script = await call("GET", path);
    expect(script.body).toMatchObject({ current_version: null, version_count: 1 });
    const versions = await call("GET", `${path}/versions`);
    expect(versions.body.data[0]).toMatchObject({ draft: true });
  });

  describe("every 409", () => {
    it("createScript: draft first version with public visibility", async () => {
      const answer = await call("POST", "/api/scripts/@demo", { body: newScript({ draft: true, visibility: "public" }) });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatch(/draft/);
    });

    it("createScript: host and slug already taken, archived scripts included", async () => {
      expect((await call("POST", "/api/scripts/@demo", { body: newScript({ host: "example.com", slug: "get_title" }) })).status).toBe(409);
      const archived = await call("POST", "/api/scripts/@demo", { body: newScript({ host: "example.com", slug: "old_scraper" }) });
      expect(archived.status).toBe(409);
      expect(archived.body.error).toMatch(/archiv/);
    });

    it("publishScript: archived, or no promoted version", async () => {
      expect((await call("POST", "/api/scripts/@demo/example.com/old_scraper/publish")).status).toBe(409);
      await call("POST", "/api/scripts/@demo", { body: newScript({ draft: true }) });
      const answer = await call("POST", `${path}/publish`);
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatch(/promote/);
    });

    it("createDraftScriptVersion: identical to the current version, or archived", async () => {
      const same = await call("POST", "/api/scripts/@demo/example.com/get_title/versions", { body: { note: "No change" } });
      expect(same.status).toBe(409);
      expect(same.body.error).toMatch(/identical/);
      const archived = await call("POST", "/api/scripts/@demo/example.com/old_scraper/versions", { body: { note: "x", content: "return 2;" } });
      expect(archived.status).toBe(409);
      expect(archived.body.error).toMatch(/archived/);
    });

    it("patch/delete a version that is no longer a draft, or of an archived script", async () => {
      const promoted = `/api/scripts/@demo/example.com/get_title/versions/${SEED_IDS.versions.getTitleV1}`;
      expect((await call("PATCH", promoted, { body: { note: "x" } })).status).toBe(409);
      expect((await call("DELETE", promoted)).status).toBe(409);
      const draft = await call("POST", "/api/scripts/@demo/example.com/get_title/versions", { body: { note: "d", content: "return 3;" } });
      await call("POST", "/api/scripts/@demo/example.com/get_title/archive");
      const draftPath = `/api/scripts/@demo/example.com/get_title/versions/${draft.body.id}`;
      expect((await call("PATCH", draftPath, { body: { note: "x" } })).status).toBe(409);
      expect((await call("DELETE", draftPath)).status).toBe(409);
      expect((await call("POST", `${draftPath}/promote`)).status).toBe(409);
      await call("POST", "/api/scripts/@demo/example.com/get_title/restore");
      expect((await call("DELETE", draftPath)).status).toBe(204);
      expect((await call("GET", draftPath)).status).toBe(404);
    });

    it("transfer: archived script, or the destination already has that host and slug", async () => {
      expect((await call("GET", "/api/scripts/@demo/example.com/old_scraper/transfer")).status).toBe(409);
      expect((await call("POST", "/api/scripts/@demo/example.com/old_scraper/transfer", { body: { target: "acme" } })).status).toBe(409);
      sandbox.store.addScript({ handle: "acme", host: "example.com", slug: "get_title" });
      const clash = await call("POST", "/api/scripts/@demo/example.com/get_title/transfer", { body: { target: "acme" } });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toMatch(/already exists/);
    });
  });

  it("refuses a parent version of another script with 400", async () => {
    const answer = await call("POST", "/api/scripts/@demo/example.com/get_title/versions", {
      body: { note: "x", parent_version_id: SEED_IDS.versions.topStoriesV1 },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.variables)).toEqual(["parent_version_id"]);
  });

  it("refuses creating under another user's handle (403) or an unknown one (404)", async () => {
    expect((await call("POST", "/api/scripts/@alice", { body: newScript() })).status).toBe(403);
    expect((await call("POST", "/api/scripts/nowhere", { body: newScript() })).status).toBe(404);
    expect((await call("POST", "/api/scripts/acme", { body: newScript() })).status).toBe(201);
  });
});

describe("transfer", () => {
  const path = "/api/scripts/@demo/example.com/get_title/transfer";

  it("lists the scopes the caller may create scripts in, except the current one", async () => {
    const answer = await call("GET", path);
    expect(answer.body).toEqual({ targets: [{ kind: "project", handle: "acme", name: "Acme Corp", can_transfer_out: true }] });
  });

  it("moves a script and answers its new address", async () => {
    const moved = await call("POST", path, { body: { target: "acme" } });
    expect(moved).toEqual({ status: 200, body: { handle: "acme", host: "example.com", slug: "get_title" } });
    expect((await call("GET", "/api/scripts/acme/example.com/get_title")).status).toBe(200);
    expect((await call("GET", "/api/scripts/@demo/example.com/get_title")).status).toBe(404);
  });

  it("refuses unknown handles, other users' scopes and read-only projects with 403", async () => {
    for (const target of ["nowhere", "@alice", "partners"]) {
      const answer = await call("POST", path, { body: { target } });
      expect(answer.status, target).toBe(403);
    }
  });

  it("refuses moving official scripts (403)", async () => {
    expect((await call("POST", "/api/scripts/reduck/mail.google.com/send_email/transfer", { body: { target: "@demo" } })).status).toBe(403);
  });
});

describe("host readmes", () => {
  it("shows a README publicly only while the owner has a public, active script on the host", async () => {
    expect((await call("GET", "/api/scripts/@demo/example.com/readme", { key: null })).status).toBe(404);
    expect((await call("GET", "/api/scripts/@demo/example.com/readme")).status).toBe(200);
    await call("POST", "/api/scripts/@demo/example.com/get_title/publish");
    expect((await call("GET", "/api/scripts/@demo/example.com/readme", { key: null })).status).toBe(200);
  });

  it("sets, replaces and deletes (idempotently) with write access only", async () => {
    const set = await call("PUT", "/api/scripts/@demo/news.ycombinator.com/readme", { body: { content: "Be gentle." } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ host: "news.ycombinator.com", content: "Be gentle." });
    const replaced = await call("PUT", "/api/scripts/@demo/news.ycombinator.com/readme", { body: { content: "Be very gentle." } });
    expect(replaced.body.content).toBe("Be very gentle.");
    expect((await call("PUT", "/api/scripts/@demo/x.com/readme", { body: { content: "" } })).status).toBe(400);
    expect((await call("PUT", "/api/scripts/reduck/mail.google.com/readme", { body: { content: "Mine" } })).status).toBe(403);
    expect((await call("DELETE", "/api/scripts/@demo/news.ycombinator.com/readme")).status).toBe(204);
    expect((await call("DELETE", "/api/scripts/@demo/news.ycombinator.com/readme")).status).toBe(204);
    expect((await call("GET", "/api/scripts/@demo/news.ycombinator.com/readme")).status).toBe(404);
  });
});

describe("runs", () => {
  it("deletes finished runs only", async () => {
    const running = await call("DELETE", `/api/runs/${SEED_IDS.runs.running}`);
    expect(running.status).toBe(409);
    expect(running.body.error).toMatch(/running/);
    expect((await call("DELETE", `/api/runs/${SEED_IDS.runs.success}`)).status).toBe(204);
    expect((await call("GET", `/api/runs/${SEED_IDS.runs.success}`)).status).toBe(404);
    expect((await call("DELETE", `/api/runs/${SEED_IDS.runs.alice}`)).status).toBe(404);
  });

  it("batch-deletes and reports unknown, foreign and unfinished ids as skipped", async () => {
    const unknown = "3f1c2a4b-1111-4222-8333-444455556666";
    const answer = await call("POST", "/api/runs/delete", {
      body: { runIds: [SEED_IDS.runs.success, SEED_IDS.runs.running, SEED_IDS.runs.queued, SEED_IDS.runs.alice, unknown] },
    });
    expect(answer).toEqual({
      status: 200,
      body: { deletedIds: [SEED_IDS.runs.success], skippedIds: [SEED_IDS.runs.running, SEED_IDS.runs.queued, SEED_IDS.runs.alice, unknown] },
    });
  });

  it("serves recorded traces and 404s runs without one", async () => {
    const traced = await call("GET", `/api/runs/${SEED_IDS.runs.success}/trace`);
    expect(traced.status).toBe(200);
    expect(traced.body.steps.length).toBeGreaterThan(0);
    expect((await call("GET", `/api/runs/${SEED_IDS.runs.sendEmail}/trace`)).status).toBe(404);
  });

  it("records runs through the store with a frozen script reference", async () => {
    const script = sandbox.store.findScriptByAddress("reduck", "mail.google.com", "send_email")!;
    const run = sandbox.store.recordRun({
      userId: sandbox.store.demo.userId,
      scriptId: script.id,
      args: { to: "me@example.com", subject: "Hi" },
      browser: { type: "managed", region: "eu-central-1", country: "fr" },
      source: "rest",
      result: { sent: true },
    });
    const answer = await call("GET", `/api/runs/${run.id}`);
    expect(answer.body).toMatchObject({
      status: "success",
      result: { result: { sent: true } },
      source: "rest",
      script: { id: script.id, version_number: "1", handle: "reduck", host: "mail.google.com", slug: "send_email", name: "Send Gmail email" },
    });
  });
});

describe("account", () => {
  it("describes the caller with projects and usage computed from their runs", async () => {
    sandbox.store.addRun();
    const me = await call("GET", "/api/me");
    expect(me.body).toMatchObject({
      id: SEED_IDS.users.demo,
      handle: "@demo",
      role: "user",
      experimental_features: ["flock_apps"],
      projects: [
        { handle: "acme", name: "Acme Corp", role: "owner" },
        { handle: "partners", name: "Partners Guild", role: "viewer" },
      ],
      usage: { runs: { used: 7, limit: 1000 } },
    });
  });

  it("lists exactly one paired extension device that may read files", async () => {
    const devices = await call("GET", "/api/devices");
    expect(devices.body).toEqual([expect.objectContaining({ id: SEED_IDS.devices.demo, file_access: true, reachable: true })]);
  });
});

describe("connectors", () => {
  const cookie = (domain: string, name = "sid") => ({ name, value: "v", domain, path: "/", expires: 2_000_000_000, httpOnly: true, secure: true });

  it("lists summaries A to Z without cookies", async () => {
    await call("PUT", "/api/connectors/amazon.com", { body: { cookies: [cookie(".amazon.com")] } });
    const list = await call("GET", "/api/connectors");
    expect(list.body.map((c: { host: string }) => c.host)).toEqual(["amazon.com", "mail.google.com"]);
    expect(list.body[0]).not.toHaveProperty("cookies");
  });

  it("falls back to the nearest parent host's connector", async () => {
    expect((await call("GET", "/api/connectors/inbox.mail.google.com")).body.host).toBe("mail.google.com");
    expect((await call("GET", "/api/connectors/calendar.google.com")).status).toBe(404);
    await call("PUT", "/api/connectors/google.com", { body: { cookies: [cookie(".google.com")] } });
    const fallback = await call("GET", "/api/connectors/calendar.google.com");
    expect(fallback.body).toMatchObject({ host: "google.com", cookies: [expect.objectContaining({ domain: ".google.com" })] });
    expect((await call("GET", "/api/connectors/mail.google.com")).body.host).toBe("mail.google.com");
  });

  it("refuses a cookie that does not belong to the host, naming it", async () => {
    const answer = await call("PUT", "/api/connectors/mail.google.com", {
      body: { cookies: [cookie(".google.com"), cookie(".evil.com", "stolen"), cookie("accounts.google.com", "sibling")] },
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.variables)).toEqual(["cookies.1.domain", "cookies.2.domain"]);
    expect(answer.body.variables["cookies.1.domain"][0]).toContain('"stolen"');
  });

  it("deletes a connector, then 404s", async () => {
    expect((await call("DELETE", "/api/connectors/mail.google.com")).status).toBe(204);
    expect((await call("DELETE", "/api/connectors/mail.google.com")).status).toBe(404);
  });
});

describe("response self-check", () => {
  it("accepts what openapi.json declares", () => {
    expect(validateResponse("getPing", 200, { message: "pong" })).toBeNull();
    expect(validateResponse("deleteRun", 204, undefined)).toBeNull();
    expect(validateResponse("getRun", 404, { error: "No such run" })).toBeNull();
  });

  it("reports a wrong shape, an undeclared status and a body on a 204", () => {
    expect(validateResponse("getPing", 200, { message: "ping" })).toMatch(/getPing 200: \/message/);
    expect(validateResponse("getMe", 200, { id: "x" })).toMatch(/required property/);
    expect(validateResponse("getRun", 400, { error: "bad" })).toBe("getRun does not declare status 400");
    expect(validateResponse("deleteRun", 204, { deleted: true })).toMatch(/declares no body/);
  });

  it("turns an answer outside openapi.json into a logged 500", async () => {
    vi.mocked(console.error).mockImplementation(() => {});
    const device = sandbox.store.devices.get(SEED_IDS.devices.demo)!;
    (device as { reachable: unknown }).reachable = "yes"; // corrupt the store behind the handlers' back
    const answer = await call("GET", "/api/devices");
    expect(answer.status).toBe(500);
    expect(answer.body.error).toMatch(/^sandbox answered outside openapi.json: listDevices 200: \/0\/reachable must be boolean/);
    expect(console.error).toHaveBeenCalledWith(answer.body.error);
    vi.mocked(console.error).mockClear();
  });
});
