import { deflateSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server/server.js";
import { temporaryFolder } from "../support/files.js";

const API = "https://reduck.ai";
const RUN_ID = "00000000-0000-4000-8005-0000000000aa";
const server = setupServer();
let folder: string;
let fetched: string[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  folder = temporaryFolder("reduck-mcp-trace-");
});
afterEach(() => {
  server.resetHandlers();
  fetched = [];
});
afterAll(async () => {
  server.close();
});

/** A valid PNG of width x height grey pixels, padded with a private chunk to about `bytes`. */
function png(width = 2, height = 2, bytes = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  const parts = [Buffer.from("89504e470d0a1a0a", "hex"), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows))];
  if (bytes) parts.push(chunk("prIv", Buffer.alloc(bytes)));
  parts.push(chunk("IEND", Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A trace given as its JSON text, for one JSON.stringify cannot write (10,000 levels deep). */
const RAW = Symbol("raw JSON");

/** The service: this run (failed), this trace, and screenshot URLs answering as given. */
function serve(trace: unknown, images: Record<string, () => Response> = {}) {
  server.use(
    http.get(`${API}/api/runs/${RUN_ID}`, () =>
      HttpResponse.json({
        id: RUN_ID,
        user_id: "u",
        name: "Read heading",
        browser: { type: "extension" },
        args: {},
        status: "error",
        result: { error: "Error: no heading\n  at line 2: throw" },
        source: "mcp",
        started_at: "2026-01-01T00:00:00Z",
        finished_at: "2026-01-01T00:00:03Z",
        script: { id: "s", version_id: "v", version_number: "1", name: "x", handle: "@demo", slug: "read_heading", host: "example.com" },
      }),
    ),
    http.get(`${API}/api/runs/${RUN_ID}/trace`, () =>
      typeof trace === "object" && trace !== null && RAW in trace
        ? new HttpResponse((trace as { [RAW]: string })[RAW], { headers: { "content-type": "application/json" } })
        : HttpResponse.json(trace as never),
    ),
    ...Object.entries(images).map(([url, answer]) =>
      http.get(url, () => {
        fetched.push(url);
        return answer();
      }),
    ),
  );
}

const pngAnswer = (bytes: Buffer) => () => new HttpResponse(bytes, { headers: { "content-type": "image/png" } });

/** One tool call by an agent (the SDK's client) to the tool over an in-memory transport. */
async function callTool(name: string, args: Record<string, unknown>) {
  const client = createReduckClient({ apiKey: "rk_test_trace", maxRetries: 0 });
  const mcp = await createMcpServer({ folder, client: async () => client });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const agent = new Client({ name: "test", version: "1.0.0" });
  await agent.connect(b);
  try {
    await agent.listTools();
    const r = (await agent.callTool({ name, arguments: args })) as {
      content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
      structuredContent: any;
      isError?: boolean;
    };
    return { ...r, text: r.content[0]!.text!, images: r.content.filter((c) => c.type === "image") };
  } finally {
    await agent.close();
  }
}

const readTrace = (runId = RUN_ID) => callTool("read_run_trace", { runId });

describe("traces of any shape", () => {
  test.each([
    ["null", null],
    ["an array", [1, 2, 3]],
    ["a string", "trace"],
    ["steps that are not a list", { steps: "many" }],
    ["steps that are not objects", { steps: [null, 7, "goto", [1]] }],
  ])("%s: answered, with what was there shown", async (_what, trace) => {
    serve(trace);
    const r = await readTrace();
    expect(r.isError).toBeFalsy();
    expect(r.text).toMatch(/^Run 00000000-0000-4000-8005-0000000000aa of @demo\/example\.com\/read_heading \(failed\): \d+ steps?/);
    // The service's message carries its own "Error:" label: said once.
    expect(r.text).toContain("\nError: no heading at line 2: throw");
    expect(r.text).not.toContain("Error: Error:");
    // An array is taken as the steps, as the HTML run page reads it (one reader, report/trace-data.ts).
    const steps = Array.isArray(trace) || (typeof trace === "object" && trace !== null && "steps" in trace && Array.isArray(trace.steps));
    if (trace !== null && !steps) expect(r.text).toContain("Also in the trace:");
    if (Array.isArray(trace)) expect(r.text).toContain("Steps (counted from 1):\n    1 ?      1\n    2 ?      2\n    3 ?      3\n");
  });

  test("5,000 steps: the first, those around the failure and the last are shown, and the gaps say how many were left out", async () => {
    const steps = Array.from({ length: 5_000 }, (_, i) => ({
      index: i,
      action: `click #b${i}`,
      ok: i !== 2_500,
      duration_ms: 3,
      ...(i === 2_500 ? { error: "not found" } : {}),
    }));
    serve({ steps, screenshots: [] });
    const started = Date.now();
    const r = await readTrace();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.structuredContent).toMatchObject({ totalSteps: 5_000, failedStep: 2_500 });
    expect(r.structuredContent.steps.length).toBeLessThanOrEqual(141);
    expect(r.text).toContain("step 2501 failed: click #b2500");
    expect(r.text).toMatch(/ {2}2501 FAILED click #b2500 · 3 ms — not found/);
    expect(r.text).toContain("  … 2450 steps left out …");
    expect(r.text).toContain("5000 ok     click #b4999");
    expect(r.text.length).toBeLessThan(20_000);
  });

  test("megabytes of text, control characters and nesting 10,000 deep stay bounded and on one line each", async () => {
    const deep = `${'{"d":'.repeat(10_000)}"bottom"${"}".repeat(10_000)}`;
    const steps = [
      JSON.stringify({ action: "A".repeat(2_000_000), ok: true, duration_ms: 1 }),
      `{"action":${JSON.stringify("goto\nhttps://x.test/\u001b[31mred\u0007")},"ok":false,"duration_ms":1,"detail":${deep},"error":"${"E".repeat(100_000)}"}`,
    ];
    serve({ [RAW]: `{"steps":[${steps.join(",")}],"screenshots":[],"debug":"${"D".repeat(1_000_000)}"}` });
    const r = await readTrace();
    expect(r.text.length).toBeLessThan(20_000);
    expect(r.text).toContain("2 FAILED goto https://x.test/ [31mred");
    expect(r.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(JSON.stringify(r.structuredContent)).toContain("nested deeper than 20 levels");
    expect(JSON.stringify(r.structuredContent).length).toBeLessThan(30_000);
  });
});

describe("screenshots", () => {
  test("the failure's screenshot first, as an image that is the PNG served", async () => {
    const failure = png(4, 3);
    serve(
      {
        steps: [
          { action: "goto", ok: true },
          { action: "click", ok: false, error: "x" },
        ],
        screenshots: [
          { kind: "last", afterStep: 1, url: "https://shots.example/last.png", type: "image/png" },
          { kind: "failure", afterStep: 1, url: "https://shots.example/failure.png", type: "image/png" },
        ],
      },
      { "https://shots.example/failure.png": pngAnswer(failure), "https://shots.example/last.png": pngAnswer(png(1, 1)) },
    );
    const r = await readTrace();
    expect(r.images).toHaveLength(2);
    expect(Buffer.from(r.images[0]!.data!, "base64")).toEqual(failure);
    expect(r.images[0]!.mimeType).toBe("image/png");
    expect(r.text).toContain("failure after step 2: image 1 below");
    expect(r.text).toContain("last after step 2: image 2 below");
    expect(r.structuredContent.screenshots).toEqual([
      { kind: "failure", afterStep: 1, url: "https://shots.example/failure.png", shown: true },
      { kind: "last", afterStep: 1, url: "https://shots.example/last.png", shown: true },
    ]);
  });

  test("at most 3 images; the others are named with their URL", async () => {
    const urls = Array.from({ length: 5 }, (_, i) => `https://shots.example/${i}.png`);
    serve({ steps: [], screenshots: urls.map((url) => ({ kind: "step", url })) }, Object.fromEntries(urls.map((u) => [u, pngAnswer(png())])));
    const r = await readTrace();
    expect(r.images).toHaveLength(3);
    expect(fetched).toHaveLength(3);
    expect(r.text).toContain("step: left out (at most 3 screenshots are read): https://shots.example/4.png");
  });

  test("too large (declared, or as it came), not an image, or missing: left out, saying why, with the URL", async () => {
    serve(
      {
        steps: [],
        screenshots: [
          { kind: "declared", url: "https://shots.example/huge.png", size: 10_000_000 },
          { kind: "big", url: "https://shots.example/big.png" },
          { kind: "html", url: "https://shots.example/page.png" },
          { kind: "gone", url: "https://shots.example/gone.png" },
        ],
      },
      {
        "https://shots.example/big.png": pngAnswer(png(1, 1, 1_600_000)),
        "https://shots.example/page.png": () => new HttpResponse("<html>login</html>", { headers: { "content-type": "text/html" } }),
        "https://shots.example/gone.png": () => new HttpResponse("no", { status: 404 }),
      },
    );
    const r = await readTrace();
    expect(r.images).toHaveLength(0);
    // The one declared too large is not even fetched.
    expect(fetched).not.toContain("https://shots.example/huge.png");
    expect(r.text).toContain(
      "declared: left out (its declared size, 9.5 MiB, is more than the 1.4 MiB one screenshot may take): https://shots.example/huge.png",
    );
    expect(r.text).toContain("big: left out (the screenshot is larger than 1.4 MiB): https://shots.example/big.png");
    expect(r.text).toContain("html: left out (what https://shots.example sent is not a PNG or JPEG image): https://shots.example/page.png");
    expect(r.text).toContain("gone: left out (https://shots.example answered 404): https://shots.example/gone.png");
  });

  test("addresses this machine must not be sent to are not fetched: plain http elsewhere than the service, file:, other schemes", async () => {
    serve({
      steps: [],
      screenshots: [
        { kind: "lan", url: "http://192.168.1.10/shot.png" },
        { kind: "metadata", url: "http://169.254.169.254/latest/meta-data/" },
        { kind: "file", url: "file:///etc/passwd" },
        { kind: "ftp", url: "ftp://example.com/shot.png" },
      ],
    });
    // MSW fails the test on any request it has no handler for: none is made.
    const r = await readTrace();
    expect(r.images).toHaveLength(0);
    expect(r.text).toContain(
      "lan: left out (not fetched: only https: URLs are, or the service's own origin (this is http://192.168.1.10); a service of your own on plain http is named with the httpOrigins option): http://192.168.1.10/shot.png",
    );
    expect(r.text).toContain(
      "file: left out (not fetched: only https: URLs are, or the service's own origin (this is file); a service of your own on plain http is named with the httpOrigins option): file:///etc/passwd",
    );
  });

  test("a data: URL is decoded here, without a request", async () => {
    const bytes = png(3, 3);
    serve({ steps: [], screenshots: [{ kind: "last", url: `data:image/png;base64,${bytes.toString("base64")}` }] });
    const r = await readTrace();
    expect(Buffer.from(r.images[0]!.data!, "base64")).toEqual(bytes);
  });
});

test("a run id of no run: the ids of recent runs a typo away", async () => {
  const other = "00000000-0000-4000-8005-0000000000ab";
  server.use(
    http.get(`${API}/api/runs/${other}`, () => HttpResponse.json({ error: "No such run" }, { status: 404 })),
    http.get(`${API}/api/runs/${other}/trace`, () => HttpResponse.json({ error: "No such run on this account, or it recorded no trace." }, { status: 404 })),
    http.get(`${API}/api/runs`, () => HttpResponse.json({ data: [{ id: RUN_ID }, { id: "11111111-2222-4333-8444-555555555555" }], hasNextPage: false })),
  );
  const r = await readTrace(other);
  expect(r.isError).toBe(true);
  expect(r.text).toBe(`No such run. Did you mean ${RUN_ID}?`);
});

describe("the service's text reaches the agent visible, never acting", () => {
  /** ESC (a terminal's commands), BEL, U+2028 (a line break to a JavaScript reader) and a bidi override. */
  const ACTING = "\u001b[2J\u0007\u2028\u202e";
  const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  test("a script's description and name, as list_scripts shows them", async () => {
    server.use(
      http.get(`${API}/api/scripts/:handle`, () =>
        HttpResponse.json({
          data: [
            {
              id: "00000000-0000-4000-8003-000000000001",
              host: "example.com",
              slug: "read_heading",
              name: `Read${ACTING} heading`,
              description: `Reads the heading${ACTING}, then rings`,
              visibility: "public",
              author: { handle: "@demo" },
              current_version: null,
            },
          ],
          hasNextPage: false,
        }),
      ),
    );
    const r = await callTool("list_scripts", { handle: "@demo" });
    const [script] = r.structuredContent.scripts;
    expect(script.description).toBe("Reads the heading\\u001b[2J\\u0007\\u2028\\u202e, then rings");
    expect(script.name).toBe("Read\\u001b[2J\\u0007\\u2028\\u202e heading");
    expect(JSON.stringify(r.structuredContent)).not.toMatch(raw);
    expect(r.text).not.toMatch(raw);
  });

  test("a trace step's detail, error and action, in the text and the structured answer", async () => {
    serve({ steps: [{ action: `click${ACTING} #send`, ok: false, detail: { selector: `#send${ACTING}`, [`key${ACTING}`]: 1 }, error: `gone${ACTING}` }] });
    const r = await readTrace();
    const [step] = r.structuredContent.steps;
    expect(step.detail).toEqual({ selector: "#send\\u001b[2J\\u0007\\u2028\\u202e", "key\\u001b[2J\\u0007\\u2028\\u202e": 1 });
    expect(step.error).toBe("gone\\u001b[2J\\u0007\\u2028\\u202e");
    expect(step.action).toBe("click [2J #send");
    expect(JSON.stringify(r.structuredContent)).not.toMatch(raw);
    expect(r.text).not.toMatch(raw);
    expect(r.text).toContain('1 FAILED click [2J #send {"selector":"#send\\\\u001b[2J');
  });
});
