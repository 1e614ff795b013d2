/**
 * Addresses as the service knows them, end to end: a host is any name of 1 to 253 characters, so
 * a script on a host with no dot (the official catalogue's `reduck/ats-tools/detect_ats`) is run,
 * batched, typed and read by the agent tool like any other; an owner written where the host
 * belongs (`reduck/send_email`) still gets a did-you-mean. The built CLI and `reduck mcp` against
 * the sandbox over loopback HTTP.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { callTool, connectClient, mcpEnv } from "../mcp/support.js";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";

const DETECT_ATS = "reduck/ats-tools/detect_ats";

const sandbox = useCliSandbox({
  store: { browser: "simulated" },
  home: "reduck-addresses-",
  seed: (store) => {
    store.addScript({
      handle: "reduck",
      host: "ats-tools",
      slug: "detect_ats",
      description: "Tells which applicant tracking system a job page runs on",
      visibility: "public",
      language: "javascript",
      content: "return { ats: args.url.includes('greenhouse') ? 'greenhouse' : 'unknown' };",
      inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
      outputSchema: { type: "object", properties: { ats: { type: "string" } }, required: ["ats"] },
    });
  },
});

describe(`a host with no dot (${DETECT_ATS})`, () => {
  test("reduck run runs it, and scripts get reads it", async () => {
    const run = await runCli(["run", "--script", DETECT_ATS, "url=https://boards.greenhouse.io/acme/jobs/1"], { env: sandbox.env });
    expect(run.stderr).not.toMatch(/host name/);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ ats: "greenhouse" });
    const get = await runCli(["scripts", "get", DETECT_ATS, "--json"], { env: sandbox.env });
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout)).toMatchObject({ host: "ats-tools", slug: "detect_ats" });
  });

  test("reduck batch runs it over a CSV", async () => {
    const input = path.join(sandbox.home, "jobs.csv");
    await writeFile(input, "url\nhttps://boards.greenhouse.io/acme/jobs/1\nhttps://jobs.example.com/2\n");
    const out = path.join(sandbox.home, "jobs.results.jsonl");
    const batch = await runCli(["batch", "--script", DETECT_ATS, "--input", input, "--out", out], { env: sandbox.env });
    expect(batch.code, batch.stderr).toBe(0);
    const lines = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // The journal's lines: its header, then each row's sending and its outcome.
    const rows = lines.filter((line) => line.status === "completed").sort((a, b) => a.row - b.row);
    expect(rows.map((line) => line.result)).toEqual([{ ats: "greenhouse" }, { ats: "unknown" }]);
  });

  test("reduck scripts types writes its types", async () => {
    const out = path.join(sandbox.home, "reduck-scripts.ts");
    const types = await runCli(["scripts", "types", DETECT_ATS, "--out", out], { env: sandbox.env });
    expect(types.code, types.stderr).toBe(0);
    expect(await readFile(out, "utf8")).toContain('"reduck/ats-tools/detect_ats"');
  });

  test("the agent tool reads and runs it by its address", async () => {
    const { client } = await connectClient(await mcpEnv({ REDUCK_API_URL: sandbox.env.REDUCK_API_URL!, REDUCK_API_KEY: sandbox.store.demo.apiKey }));
    try {
      const read = await callTool(client, "read_script", { address: DETECT_ATS });
      expect(read.isError, read.text).toBe(false);
      const run = await callTool(client, "run_script", { script: { address: DETECT_ATS, args: { url: "https://boards.greenhouse.io/a" } } });
      expect(run.isError, run.text).toBe(false);
      expect(run.text).toContain("greenhouse");
    } finally {
      await client.close();
    }
  });
});

describe("an owner written where the host belongs", () => {
  test("reduck/send_email: no such script of your own, and did you mean the scripts of that slug", async () => {
    const before = sandbox.store.runs.size;
    const run = await runCli(["run", "--script", "reduck/send_email", "to=me@example.com", "subject=Hi"], { env: sandbox.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /No such script: @demo\/reduck\/send_email\. Did you mean reduck\/mail\.google\.com\/send_email\? \(reduck\/send_email names a script of your own on a host called reduck\)\n$/,
    );
    expect(sandbox.store.runs.size).toBe(before);
  });
});
