import { describe, expect, test } from "vitest";
import { listScriptTransferTargets, transferScript, getScript, archiveScript, getHostReadme, setHostReadme, deleteHostReadme } from "../../src/index.js";
import { useSandboxClient } from "../support/sandbox-client.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const ref = useSandboxClient({ fresh: true });
const path = { handle: "@demo", host: "example.com", slug: "get_title" };

describe("transfer", () => {
  test("targets are the scopes the caller may create in, the current owner excluded", async () => {
    const { data } = await listScriptTransferTargets({ client: ref.client, path });
    const handles = data!.targets.map((t) => t.handle);
    expect(handles).toContain("acme");
    expect(handles).not.toContain("@demo");
    expect(handles).not.toContain("reduck");
  });

  test("moving a script to a project changes its address", async () => {
    const moved = await transferScript({ client: ref.client, path, body: { target: "acme" } });
    expect(moved.data).toEqual({ handle: "acme", host: "example.com", slug: "get_title" });
    expect((await getScript({ client: ref.client, path: { handle: "acme", host: "example.com", slug: "get_title" } })).data?.id).toMatch(UUID);
    expect((await getScript({ client: ref.client, path })).error?.status).toBe(404);
  });

  test("a scope the caller may not create in is a 403", async () => {
    const { error } = await transferScript({ client: ref.client, path, body: { target: "reduck" } });
    expect(error?.status).toBe(403);
  });

  test("an archived script has nowhere to go: 409", async () => {
    await archiveScript({ client: ref.client, path });
    expect((await listScriptTransferTargets({ client: ref.client, path })).error?.status).toBe(409);
    expect((await transferScript({ client: ref.client, path, body: { target: "acme" } })).error?.status).toBe(409);
  });
});

describe("host READMEs", () => {
  test("the catalogue's README is readable", async () => {
    const { data } = await getHostReadme({ client: ref.client, path: { handle: "reduck", host: "mail.google.com" } });
    expect(data?.content).toMatch(/^Gmail scripts need a signed-in Google account\./);
  });

  test("set replaces, delete removes, and delete again is still fine", async () => {
    const p = { handle: "@demo", host: "news.ycombinator.com" };
    expect((await getHostReadme({ client: ref.client, path: p })).error?.status).toBe(404);
    const set = await setHostReadme({ client: ref.client, path: p, body: { content: "Wait 2 s between pages." } });
    expect(set.data?.content).toBe("Wait 2 s between pages.");
    expect((await getHostReadme({ client: ref.client, path: p })).data?.content).toBe("Wait 2 s between pages.");
    expect((await deleteHostReadme({ client: ref.client, path: p })).response?.status).toBe(204);
    expect((await deleteHostReadme({ client: ref.client, path: p })).response?.status).toBe(204);
    expect((await getHostReadme({ client: ref.client, path: p })).error?.status).toBe(404);
  });

  test("an empty README is refused with a per-field message, and the catalogue's is not ours to write", async () => {
    const empty = await setHostReadme({ client: ref.client, path: { handle: "@demo", host: "example.com" }, body: { content: "" } });
    expect(empty.error?.status).toBe(400);
    expect(empty.error?.variables?.content).toEqual(["must NOT have fewer than 1 characters"]);
    const locked = await setHostReadme({ client: ref.client, path: { handle: "reduck", host: "mail.google.com" }, body: { content: "mine" } });
    expect(locked.error?.status).toBe(403);
  });
});
