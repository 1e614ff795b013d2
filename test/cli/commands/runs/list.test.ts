import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("runs list", () => {
  it("lists your runs, newest first, as a table", async () => {
    const { stdout, stderr, exitCode } = await reduck("runs", "list");
    expect(exitCode).toBe(0);
    const rows = stdout.trimEnd().split("\n");
    const mine = server.store.runsOf(server.store.demo.userId);
    expect(rows).toHaveLength(mine.length);
    expect(stdout).not.toContain(SEED_IDS.runs.alice);
    expect(rows[0]).toMatch(
      new RegExp(`^${SEED_IDS.runs.queued}\tqueued\t@demo/example\\.com/get_title\tmanaged \\(us-east-1\\)\t\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`),
    );
    expect(stdout).toMatch(new RegExp(`^${SEED_IDS.runs.sendEmail}\tsuccess\treduck/mail\\.google\\.com/send_email\textension\t`, "m"));
    expect(stderr).toBe("");
  });

  it("--status and --host filter", async () => {
    const errors = (await reduck("runs", "list", "--status", "error", "--json")).json();
    expect(errors).toEqual({ data: [expect.objectContaining({ id: SEED_IDS.runs.error })], hasNextPage: false, totalCount: 1 });
    const gmail = (await reduck("runs", "list", "--host", "mail.google.com", "--json")).json().data;
    expect(gmail.map((r: { id: string }) => r.id)).toEqual([SEED_IDS.runs.sendEmail]);
    const bad = await reduck("runs", "list", "--status", "finished");
    expect(bad.exitCode).toBe(2);
  });

  it("--script keeps one script's runs (an address as run takes it); an unknown one is exit 2 with a did-you-mean", async () => {
    const mine = server.store.runsOf(server.store.demo.userId);
    const titles = mine.filter((r) => r.script?.id === SEED_IDS.scripts.getTitle).map((r) => r.id);
    expect(titles.length).toBeGreaterThan(1);
    expect(titles.length).toBeLessThan(mine.length);
    const own = (await reduck("runs", "list", "--script", "example.com/get_title", "--json")).json();
    expect(own.data.map((r: { id: string }) => r.id).sort()).toEqual([...titles].sort());
    const official = (await reduck("runs", "list", "--script", "reduck/mail.google.com/send_email", "--json")).json();
    expect(official.data.map((r: { id: string }) => r.id)).toEqual([SEED_IDS.runs.sendEmail]);
    const typo = await reduck("runs", "list", "--script", "example.com/get_titel");
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("Did you mean @demo/example.com/get_title?");
  });

  it("pages with a note on stderr; --all fetches every page", async () => {
    for (let i = 0; i < 25; i++) server.store.addRun({ status: "success" });
    const total = server.store.runsOf(server.store.demo.userId).length;
    const page = await reduck("runs", "list", "--page-size", "10", "--page", "1");
    expect(page.stdout.trimEnd().split("\n")).toHaveLength(10);
    expect(page.stderr).toContain(`Showing 10 of ${total}. More with --page 2, or everything with --all.`);
    const all = (await reduck("runs", "list", "--all", "--json")).json();
    expect(all).toMatchObject({ hasNextPage: false, totalCount: total });
    expect(new Set(all.data.map((r: { id: string }) => r.id)).size).toBe(total);
  });

  it("a refused credential exits 4", async () => {
    process.env.REDUCK_API_KEY = "rk_not_a_real_key";
    const { exitCode, stderr } = await reduck("runs", "list");
    expect(exitCode).toBe(4);
    expect(stderr).toContain("REDUCK_API_KEY");
    expect(stderr).not.toContain("rk_not_a_real_key");
  });
});
