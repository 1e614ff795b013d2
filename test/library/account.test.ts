import { describe, expect, test } from "vitest";
import { getMe, listDevices, getVersion, getPing } from "../../src/index.js";
import { SEED_IDS } from "@reduck-client/sandbox";
import { useSandboxClient } from "../support/sandbox-client.js";

const ref = useSandboxClient();

describe("getMe", () => {
  test("names the account, its projects and its usage", async () => {
    const { data, error } = await getMe({ client: ref.client });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ id: SEED_IDS.users.demo, handle: "@demo" });
    expect(data!.projects.map((p) => p.handle).sort()).toEqual(["acme", "partners"]);
    expect(data!.usage?.runs.used).toBeGreaterThan(0);
  });

  test("an unknown key is refused with 401", async () => {
    const { data, error } = await getMe({ client: ref.clientWith({ apiKey: "rk_not_a_key" }) });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "http", status: 401 });
    expect(error!.error).toBe("Invalid API key");
  });

  test("an OAuth token for the API works, one issued for the MCP server is refused and says so", async () => {
    const ok = await getMe({ client: ref.clientWith({ oauthToken: ref.store.demo.oauthToken }) });
    expect(ok.data?.handle).toBe("@demo");
    const refused = await getMe({ client: ref.clientWith({ oauthToken: ref.store.demo.mcpToken }) });
    expect(refused.error?.status).toBe(401);
    expect(refused.error?.error).toMatch(/MCP/);
    expect(refused.error?.error).toMatch(/https:\/\/reduck\.ai/);
  });

  test("a token without the operation's scope gets 403", async () => {
    const { error } = await getMe({ client: ref.clientWith({ oauthToken: ref.store.demo.readOnlyToken }) });
    expect(error?.status).toBe(403);
    expect(error?.error).toMatch(/profile/);
  });
});

describe("listDevices", () => {
  test("lists the paired extension", async () => {
    const { data } = await listDevices({ client: ref.client });
    expect(data).toHaveLength(1);
    expect(data![0]).toMatchObject({ id: SEED_IDS.devices.demo, file_access: true });
  });

  test("needs a credential", async () => {
    const { error } = await listDevices({ client: ref.clientWith({ apiKey: "nope" }) });
    expect(error?.status).toBe(401);
  });
});

describe("open endpoints", () => {
  test("getVersion and getPing answer", async () => {
    expect((await getVersion({ client: ref.client })).data?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect((await getPing({ client: ref.client })).data).toEqual({ message: "pong" });
  });

  test("they fail as values when the server is away", async () => {
    const { createReduckClient } = await import("../../src/index.js");
    const offline = createReduckClient({
      apiKey: "k",
      maxRetries: 0,
      fetch: async () => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } })),
    });
    expect((await getPing({ client: offline })).error).toMatchObject({ kind: "network", cause: "ENOTFOUND" });
    expect((await getVersion({ client: offline })).error?.error).toBe("could not connect to https://reduck.ai (ENOTFOUND)");
  });
});
