/**
 * `reduck run` as a program reads it: what stdout, stderr and the
 * exit code say about each run, and what is refused before a run is spent. The built CLI against
 * the sandbox over loopback HTTP.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const sandbox = useCliSandbox({
  seed: (store) => {
    // A script whose own result says "failed": it is a result, not a failure.
    store.addScript({ handle: "@demo", host: "status.example", slug: "report", content: "return { status: 'failed', reason: 'the site said no' };" });
    store.addScript({ handle: "@demo", host: "status.example", slug: "nothing", content: "return;" });
    store.addScript({ handle: "@demo", host: "status.example", slug: "boom", content: "throw new Error('the button is gone');" });
    // A contract with ranges, allowed values, patterns, lengths, formats, nested objects and items.
    store.addScript({
      handle: "@demo",
      host: "img.example",
      slug: "resize",
      content: "return { args, file: files.image?.name ?? null };",
      inputSchema: {
        type: "object",
        properties: {
          image: { type: "string", format: "file" },
          width: { type: "integer", minimum: 1, maximum: 10000 },
          format: { type: "string", enum: ["png", "jpeg", "webp"] },
          code: { type: "string", pattern: "^[A-Z]{3}$" },
          title: { type: "string", minLength: 2, maxLength: 10 },
          notify: { type: "string", format: "email" },
          crop: { type: "object", properties: { x: { type: "integer", minimum: 0 } }, additionalProperties: false },
          tags: { type: "array", items: { type: "string", maxLength: 5 }, maxItems: 3 },
        },
        required: ["image", "width"],
      },
    });
  },
  home: "reduck-outcomes-",
});

beforeAll(async () => {
  await writeFile(path.join(sandbox.home, "photo.png"), Buffer.alloc(2048, 3));
});

const EMAIL = ["--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi"];
const FAILING = ["--script", "status.example/boom"];

describe("several scripts (§1)", () => {
  test("--json prints the agent tool's batch: status, totalSteps, runs with status, runId and result or error (and errorType); no batchId when the service gave none", async () => {
    const r = await runCli(["run", "--json", ...EMAIL, "--script", "status.example/report", ...FAILING], { env: sandbox.env });
    expect(r.code).toBe(1);
    const batch = JSON.parse(r.stdout);
    // The service answered a 200 array of envelopes, which has no batch id.
    expect(batch).toEqual({
      status: "failed",
      totalSteps: 3,
      runs: [
        { status: "completed", runId: expect.stringMatching(UUID), result: expect.objectContaining({ sent: true, subject: "Hi" }) },
        { status: "completed", runId: expect.stringMatching(UUID), result: { status: "failed", reason: "the site said no" } },
        {
          status: "failed",
          runId: expect.stringMatching(UUID),
          error: expect.stringContaining("the button is gone"),
          errorType: "site_error",
          externalMessage: expect.stringContaining("the button is gone"),
        },
      ],
    });
    expect(sandbox.store.runs.get(batch.runs[2].runId)!.status).toBe("error");
    expect(sandbox.store.runs.get(batch.runs[1].runId)!.status).toBe("success");
  });

  test("--sequential stops at the first failure: the rest are skipped", async () => {
    const r = await runCli(["run", "--json", "--sequential", ...FAILING, ...EMAIL], { env: sandbox.env });
    expect(r.code).toBe(1);
    const { runs } = JSON.parse(r.stdout);
    expect(runs.map((s: { status: string }) => s.status)).toEqual(["failed", "skipped"]);
    expect(runs[1]).toEqual({
      status: "skipped",
      runId: null,
      error: expect.any(String),
      errorType: "not_run",
      externalMessage: expect.stringContaining("did not run"),
    });
  });

  test("without --json stdout is results only: an array in order, null where a step gave none; failures on stderr with run ids; exit 1", async () => {
    const r = await runCli(["run", "--script", "status.example/report", ...FAILING, "--script", "status.example/nothing"], { env: sandbox.env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([{ status: "failed", reason: "the site said no" }, null, null]);
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toMatch(/^status\.example\/report: run [0-9a-f-]{36}$/);
    // The service's own words for people (externalMessage).
    expect(lines[1]).toMatch(/^status\.example\/boom: run [0-9a-f-]{36} failed: @demo\/status\.example\/boom failed on the site: the button is gone$/);
    // Then how to look at what the failed run did.
    expect(lines[2]).toBe(`  see what it did: reduck runs trace ${/run ([0-9a-f-]{36}) failed/.exec(lines[1]!)?.[1]} --open`);
    expect(lines[3]).toMatch(/^status\.example\/nothing: run [0-9a-f-]{36}$/);
  });

  test("all completed: exit 0, even when a result itself says failed", async () => {
    const r = await runCli(["run", "--script", "status.example/report", ...EMAIL], { env: sandbox.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toEqual({ status: "failed", reason: "the site said no" });
  });
});

describe("one script (§2)", () => {
  test("--json: {status, runId, result}; the run id is the service's", async () => {
    const r = await runCli(["run", "--json", ...EMAIL], { env: sandbox.env });
    expect(r.code).toBe(0);
    const outcome = JSON.parse(r.stdout);
    expect(outcome).toEqual({ status: "completed", runId: expect.stringMatching(UUID), result: expect.objectContaining({ sent: true }) });
    expect(sandbox.store.runs.get(outcome.runId)!.status).toBe("success");
  });

  test("a failed run says its run id on stderr (exit 1); --json carries it", async () => {
    const plain = await runCli(["run", ...FAILING], { env: sandbox.env });
    expect(plain.code).toBe(1);
    expect(plain.stdout).toBe("");
    const [, runId] =
      /^Error: run ([0-9a-f-]{36}) failed: @demo\/status\.example\/boom failed on the site: the button is gone\n {2}see what it did: reduck runs trace \1 --open\n$/.exec(
        plain.stderr,
      ) ?? [];
    expect(sandbox.store.runs.get(runId!)!.status).toBe("error");

    const json = await runCli(["run", "--json", ...FAILING], { env: sandbox.env });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      status: "failed",
      runId: expect.stringMatching(UUID),
      error: "Error: the button is gone",
      errorType: "site_error",
      externalMessage: "@demo/status.example/boom failed on the site: the button is gone",
    });
  });
});

describe("the whole input schema, before a run is spent (§5)", () => {
  test("every problem is named in CLI words, exit 2, nothing uploaded and no run recorded", async () => {
    const before = sandbox.store.runs.size;
    const r = await runCli(
      [
        "run",
        "--script",
        "img.example/resize",
        "width=0",
        "format=gif",
        "code=ab1",
        "title=x",
        "notify=not-an-address",
        'crop={"x":-1,"y":2}',
        'tags=["a","toolong",1,"b"]',
        "file:image=~/photo.png",
      ],
      { env: sandbox.env },
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const message = r.stderr;
    for (const problem of [
      "width must be at least 1 (you gave 0)",
      'format must be one of "png", "jpeg" or "webp" (you gave "gif")',
      'code must match the pattern ^[A-Z]{3}$ (you gave "ab1")',
      "title must be at least 2 characters long (you gave 1 character)",
      'notify must be an email address (you gave "not-an-address")',
      "crop.x must be at least 0 (you gave -1)",
      "crop does not take y",
      "tags must have at most 3 items (you gave 4)",
      "tags[1] must be at most 5 characters long (you gave 7 characters)",
      "tags[2] must be string (you gave 1)",
    ]) {
      expect(message).toContain(problem);
    }
    expect(message.trim().split("\n")).toHaveLength(1);
    expect(message).toMatch(/^Error: img\.example\/resize: /);
    expect(sandbox.store.runs.size).toBe(before);
  });

  test("arguments that fit run", async () => {
    const r = await runCli(["run", "--script", "img.example/resize", "width=640", "format=png", 'tags=["a"]', "file:image=~/photo.png"], { env: sandbox.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ args: { width: 640, format: "png", tags: ["a"] }, file: "image" });
  });
});

describe("versions by number (§6)", () => {
  test("scripts versions get, promote and run --version take the number scripts versions list shows", async () => {
    const got = await runCli(["scripts", "versions", "get", "example.com/get_title", "1", "--json"], { env: sandbox.env });
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).id).toBe(SEED_IDS.versions.getTitleV1);

    const ran = await runCli(["run", "--json", "--version", "1", "--script", "example.com/get_title", "url=https://example.com/"], { env: sandbox.env });
    expect(ran.code, ran.stderr).toBe(0);
    expect(sandbox.store.runs.get(JSON.parse(ran.stdout).runId)!.script!.version_id).toBe(SEED_IDS.versions.getTitleV1);

    const promoted = await runCli(["scripts", "versions", "promote", "example.com/get_title", "1"], { env: sandbox.env });
    expect(promoted.code).toBe(0);
    expect(sandbox.store.scripts.get(SEED_IDS.scripts.getTitle)!.currentVersionId).toBe(SEED_IDS.versions.getTitleV1);
    expect((await runCli(["scripts", "versions", "promote", "example.com/get_title", "2"], { env: sandbox.env })).code).toBe(0);
    expect(sandbox.store.scripts.get(SEED_IDS.scripts.getTitle)!.currentVersionId).toBe(SEED_IDS.versions.getTitleV2);
  });

  test("a number the script does not have, or a value that is neither, exits 2 pointing to the version list", async () => {
    const before = sandbox.store.runs.size;
    for (const args of [
      ["scripts", "versions", "promote", "example.com/get_title", "9"],
      ["scripts", "versions", "get", "example.com/get_title", "v2"],
      ["run", "--version", "7", "--script", "example.com/get_title", "url=https://example.com/"],
    ]) {
      const r = await runCli(args, { env: sandbox.env });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("see `reduck scripts versions list @demo/example.com/get_title`");
    }
    expect((await runCli(["scripts", "versions", "get", "example.com/get_title", "9"], { env: sandbox.env })).stderr).toContain(
      "@demo/example.com/get_title has no version 9 (its versions: 1, 2)",
    );
    expect(sandbox.store.runs.size).toBe(before);
  });
});

describe("flag combinations refused locally (§7)", () => {
  test("--draft with --visibility public: exit 2, nothing created", async () => {
    const source = path.join(sandbox.home, "s.js");
    await writeFile(source, "return {};\n");
    const r = await runCli(
      [
        "scripts",
        "create",
        "--host",
        "draft.example",
        "--slug",
        "x",
        "--description",
        "d",
        "--source",
        source,
        "--side-effects",
        "none",
        "--draft",
        "--visibility",
        "public",
      ],
      { env: sandbox.env },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --draft leaves the script with no promoted version, and a public script needs one/);
    expect(sandbox.store.findScriptByAddress("@demo", "draft.example", "x")).toBeUndefined();
  });

  test("--browser managed with --device: exit 2, no run", async () => {
    const before = sandbox.store.runs.size;
    const r = await runCli(["run", "--browser", "managed", "--device", SEED_IDS.devices.demo, ...EMAIL], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--device names one of your own paired browsers, so it cannot go with --browser managed");
    expect(sandbox.store.runs.size).toBe(before);
  });

  test("runs delete names the id that is not a UUID, counted from 1, and deletes nothing", async () => {
    const keep = sandbox.store.addRun({ status: "success" });
    const r = await runCli(["runs", "delete", "--yes", keep.id, "86b0479f"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the 2nd run id, "86b0479f", is not a run id');
    expect(sandbox.store.runs.has(keep.id)).toBe(true);
    const two = await runCli(["runs", "delete", "--yes", "x", keep.id, "y"], { env: sandbox.env });
    expect(two.stderr).toContain('the 1st ("x") and 3rd ("y") of the ids given are not run ids');
  });
});
