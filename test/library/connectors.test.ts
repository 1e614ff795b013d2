import { describe, expect, test } from "vitest";
import { listConnectors, getConnector, putConnector, deleteConnector } from "../../src/index.js";
import { useSandboxClient } from "../support/sandbox-client.js";

const ref = useSandboxClient({ fresh: true });
const cookie = (domain: string, name = "SID") => ({ name, value: "v", domain, path: "/", expires: 2_000_000_000, httpOnly: true, secure: true });

describe("connectors", () => {
  test("the demo account has one, for mail.google.com, listed without cookies", async () => {
    const { data } = await listConnectors({ client: ref.client });
    expect(data!.map((c) => c.host)).toEqual(["mail.google.com"]);
    expect(data![0]).not.toHaveProperty("cookies");
  });

  test("a host without a connector falls back to its parent host's", async () => {
    await putConnector({ client: ref.client, path: { host: "google.com" }, body: { cookies: [cookie(".google.com")] } });
    const { data } = await getConnector({ client: ref.client, path: { host: "docs.google.com" } });
    expect(data?.host).toBe("google.com");
    expect(data?.cookies[0]?.name).toBe("SID");
  });

  test("no connector and no parent's: 404", async () => {
    expect((await getConnector({ client: ref.client, path: { host: "docusign.com" } })).error?.status).toBe(404);
  });

  test("every cookie must belong to the host", async () => {
    const { error } = await putConnector({
      client: ref.client,
      path: { host: "linkedin.com" },
      body: { cookies: [cookie(".linkedin.com"), cookie(".evil.test", "X")] },
    });
    expect(error?.status).toBe(400);
    expect(JSON.stringify(error?.variables ?? error?.error)).toMatch(/evil\.test/);
  });

  test("put creates, delete removes", async () => {
    expect((await putConnector({ client: ref.client, path: { host: "linkedin.com" }, body: { cookies: [cookie("www.linkedin.com")] } })).data?.host).toBe(
      "linkedin.com",
    );
    expect((await deleteConnector({ client: ref.client, path: { host: "linkedin.com" } })).response?.status).toBe(204);
    expect((await deleteConnector({ client: ref.client, path: { host: "linkedin.com" } })).error?.status).toBe(404);
  });
});
