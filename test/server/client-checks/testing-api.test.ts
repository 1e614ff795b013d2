// The in-process testing API's own promises: `seed` fills the store before the first request, and
// a handler put in with `use` answers for one test only, also when the store lives on.
import { http, HttpResponse } from "msw";
import { getMe, getScript } from "reduck-client";
import { describe, expect, test } from "vitest";
import { useSandboxWithClient } from "./sandbox-harness.js";

const seeded = { handle: "@demo", host: "seeded.example", slug: "echo" };

describe("one store for the file", () => {
  const server = useSandboxWithClient({
    seed: (store) => {
      store.addScript({ ...seeded, content: "return args;", inputSchema: { type: "object" } });
    },
  });

  test("seed ran before the first request; use() answers for this test", async () => {
    expect((await getScript({ client: server.client, path: seeded })).data?.slug).toBe("echo");
    server.use(http.get("*/api/me", () => HttpResponse.json({ error: "down for a test" }, { status: 503 })));
    expect((await getMe({ client: server.client })).error?.status).toBe(503);
  });

  test("the next test meets the sandbox's own handlers again, over the same store", async () => {
    expect((await getMe({ client: server.client })).data?.handle).toBe("@demo");
    expect((await getScript({ client: server.client, path: seeded })).error).toBeUndefined();
  });
});
