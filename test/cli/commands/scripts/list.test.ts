import { describe, expect, it } from "vitest";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

/** What `scripts list` without a handle should show @demo: own, member projects', official public; no archived. */
function expectedCrossOwnerAddresses(): string[] {
  const { store } = server;
  const demo = store.demo.userId;
  return [...store.scripts.values()]
    .filter((s) => !s.archivedAt && (store.isInsider(demo, s.owner) || (store.isOfficial(s.owner) && s.visibility === "public")))
    .map((s) => `${store.handleOf(s.owner)}/${s.host}/${s.slug}`)
    .sort();
}

describe("scripts list", () => {
  it("piped, prints tab-separated rows without padding, truncation or header, with a note when more pages exist", async () => {
    // A page smaller than the listing (the sandbox's catalogue alone is shorter than the default 20).
    const { stdout, stderr, exitCode } = await reduck("scripts", "list", "--page-size", "8");
    expect(exitCode).toBe(0);
    const rows = stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(8);
    const total = expectedCrossOwnerAddresses().length;
    expect(total).toBeGreaterThan(8);
    expect(stderr).toContain(`Showing 8 of ${total}. More with --page 1, or everything with --all.`);
    for (const row of rows) expect(row.split("\t")).toHaveLength(5);
    const getTitle = rows.find((r) => r.startsWith("@demo/example.com/get_title\t"));
    expect(getTitle).toBe("@demo/example.com/get_title\tGet page title\tprivate\tnone\tOpens a page and returns its title.");
    // Long descriptions stay whole.
    const longest = [...server.store.scripts.values()].filter((s) => s.description.length > 200)[0];
    if (longest) {
      const listed = await reduck("scripts", "list", "reduck", "--host", longest.host);
      expect(listed.stdout).toContain(longest.description.replace(/\s+/g, " "));
    }
  });

  it("--all --json prints the API's page with every item, each with its address, without the page note", async () => {
    const { stdout, stderr, exitCode, json } = await reduck("scripts", "list", "--all", "--json");
    expect(exitCode).toBe(0);
    expect(stderr).toBe("");
    const page = json<{ data: Array<{ address: string; author: { handle: string }; host: string; slug: string }>; hasNextPage: boolean; totalCount: number }>();
    expect(page.data.map((s) => `${s.author.handle}/${s.host}/${s.slug}`).sort()).toEqual(expectedCrossOwnerAddresses());
    expect(page.data.map((s) => s.address).sort()).toEqual(expectedCrossOwnerAddresses());
    expect(page.hasNextPage).toBe(false);
    expect(page.totalCount).toBe(expectedCrossOwnerAddresses().length);
    expect(stdout.trim().startsWith("{")).toBe(true);
  });

  it("--all with a small page size still gathers everything", async () => {
    const { json } = await reduck("scripts", "list", "--all", "--page-size", "7", "--json");
    expect(json().data).toHaveLength(expectedCrossOwnerAddresses().length);
  });

  it("--json without --all is one page, saying there are more and how many in all", async () => {
    const first = (await reduck("scripts", "list", "--page-size", "5", "--json")).json();
    const second = (await reduck("scripts", "list", "--page-size", "5", "--page", "1", "--json")).json();
    expect(first).toMatchObject({ hasNextPage: true, totalCount: expectedCrossOwnerAddresses().length });
    expect(first.data).toHaveLength(5);
    expect(second.data).toHaveLength(5);
    expect(second.data.map((s: { id: string }) => s.id)).not.toContain(first.data[0]!.id);
  });

  it("with a handle and --host lists that owner's scripts for one site", async () => {
    const { json, exitCode } = await reduck("scripts", "list", "reduck", "--host", "mail.google.com", "--json");
    expect(exitCode).toBe(0);
    expect(
      json<{ data: Array<{ slug: string; author: { handle: string } }> }>()
        .data.map((s) => `${s.author.handle}/${s.slug}`)
        .sort(),
    ).toEqual(["reduck/create_draft", "reduck/reply_to_email", "reduck/send_email"]);
  });

  it("an owner's listing includes archived scripts, marked; --archived and --no-archived filter them", async () => {
    const all = await reduck("scripts", "list", "@demo");
    expect(all.stdout).toMatch(/^@demo\/example\.com\/old_scraper\tOld scraper\tprivate \(archived\)\t/m);
    const archived = (await reduck("scripts", "list", "@demo", "--archived", "--json")).json().data;
    expect(archived.map((s: { slug: string }) => s.slug)).toEqual(["old_scraper"]);
    const active = (await reduck("scripts", "list", "@demo", "--no-archived", "--json")).json().data;
    expect(active.map((s: { slug: string }) => s.slug).sort()).toEqual(["get_title", "top_stories"]);
  });

  it("--visibility and --query filter", async () => {
    const pub = (await reduck("scripts", "list", "@demo", "--visibility", "public", "--json")).json().data;
    expect(pub.map((s: { slug: string }) => s.slug)).toEqual(["top_stories"]);
    const found = (await reduck("scripts", "list", "-q", "hacker news", "--json")).json().data;
    expect(found.map((s: { slug: string }) => s.slug)).toEqual(["top_stories"]);
  });

  it("another user's listing shows only their public scripts", async () => {
    const { json } = await reduck("scripts", "list", "@alice", "--json");
    expect(json().data.map((s: { slug: string }) => s.slug)).toEqual(["public_search"]);
  });

  it("says so on stderr when nothing matches", async () => {
    const { stdout, stderr, exitCode } = await reduck("scripts", "list", "--query", "zzzz-no-such-thing");
    expect(exitCode).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toContain("No scripts match.");
  });

  it("refuses bad paging and a script address given as a handle (exit 2)", async () => {
    for (const args of [["--page-size", "0"], ["--page-size", "101"], ["--page", "-1"], ["--page", "1", "--all"], ["reduck/mail.google.com/send_email"]]) {
      const { exitCode, stderr } = await reduck("scripts", "list", ...args);
      expect(exitCode, args.join(" ")).toBe(2);
      expect(stderr).toMatch(/^Error: /m);
    }
  });

  it("an unknown handle is a usage error (exit 2): the service's message and the handle most likely meant, on one line", async () => {
    const cases: Array<[string, string]> = [
      // A typo of a handle the caller knows (the official catalogue's, their own, their projects').
      ["redcuk", "Did you mean reduck?"],
      ["acme-", "Did you mean acme?"],
      // The right name, the wrong way round: a person's handle starts with @, a project's does not.
      ["demo", "Did you mean @demo? A person's handle starts with @."],
      ["@acme", "Did you mean acme? A project's handle has no @."],
      // Nothing close: the handles there are.
      ["nobody-here", "Your handles: @demo, acme, partners; the official catalogue: reduck."],
    ];
    for (const [handle, hint] of cases) {
      const { exitCode, stderr } = await reduck("scripts", "list", handle);
      expect(exitCode, handle).toBe(2);
      expect(stderr).toBe(`Error: listing ${handle}'s scripts: No such handle: ${handle}. ${hint}\n`);
    }
    const json = await reduck("scripts", "list", "redcuk", "--json");
    expect(json.exitCode).toBe(2);
    expect(json.json().error.message).toBe("listing redcuk's scripts: No such handle: redcuk. Did you mean reduck?");
  });
});
