import { describe, expect, test } from "vitest";
import { listScripts, listAll, paginate, paginateToArray, ReduckPageError, listRuns } from "../../src/index.js";
import { useSandboxClient } from "../support/sandbox-client.js";

const ref = useSandboxClient();

describe("pagination", () => {
  test("250 scripts come back across pages, each once, in order", async () => {
    for (let i = 0; i < 250; i++) {
      ref.store.addScript({ handle: "@demo", host: "bulk.example", slug: `s_${String(i).padStart(3, "0")}` });
    }
    const first = await listScripts({ client: ref.client, path: { handle: "@demo" }, query: { host: "bulk.example", pageSize: 100 } });
    expect(first.data).toHaveLength(100);
    expect(first.hasNextPage).toBe(true);
    expect(first.totalCount).toBe(250);

    const pagesAsked: number[] = [];
    const counting: typeof listScripts = (o) => {
      pagesAsked.push(o.query?.page ?? 0);
      return listScripts(o);
    };
    const slugs: string[] = [];
    for await (const s of paginate(counting, {
      client: ref.client,
      path: { handle: "@demo" },
      query: { host: "bulk.example", pageSize: 100, sortBy: "name" },
    })) {
      slugs.push(s.slug);
    }
    expect(slugs).toHaveLength(250);
    expect(new Set(slugs).size).toBe(250);
    expect(pagesAsked).toEqual([0, 1, 2]);
  });

  test("a maximum stops early", async () => {
    const { data, error } = await paginateToArray(
      listScripts,
      { client: ref.client, path: { handle: "@demo" }, query: { host: "bulk.example", pageSize: 100 } },
      { max: 120 },
    );
    expect(error).toBeUndefined();
    expect(data).toHaveLength(120);
  });

  test("a failing page stops the loop with the error", async () => {
    const bad = ref.clientWith({ apiKey: "nope" });
    await expect(async () => {
      for await (const _ of paginate(listRuns, { client: bad })) void _;
    }).rejects.toBeInstanceOf(ReduckPageError);
    const { data, error } = await paginateToArray(listRuns, { client: bad });
    expect(data).toEqual([]);
    expect(error?.status).toBe(401);
  });

  test("listAll, the former name, is the same function", () => {
    expect(listAll).toBe(paginateToArray);
  });
});
