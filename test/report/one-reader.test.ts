/**
 * One rule for every hop of a screenshot's URL, whichever of the four readers of a run reads it:
 * the library's fetchScreenshot, the run's page (`runs trace --html`), `runs trace --screenshots`
 * and the agent tool's read_run_trace. A trace of the test's own names screenshots whose URLs
 * redirect across origins, from https down to http, six times, and to another port of this
 * machine (a real server on loopback, which counts what reaches it): nothing past the rule is
 * fetched by any of them, and what the rule allows (five redirects, all https) still is.
 */
import http from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { HttpResponse, http as route, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createReduckClient } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server/server.js";
import { fetchScreenshot } from "../../src/report/screenshots.js";
import { SEED_IDS } from "@reduck-client/sandbox";
import { API_URL, reduck, tempDir, useSandboxForCli } from "../cli/commands/harness.js";
import { temporaryFolder } from "../support/files.js";
import { type Listening, listenOnLoopback } from "../support/loopback.js";
import { refusedPort } from "../support/scripted-server.js";

const sandbox = useSandboxForCli();
const API = API_URL;
const SHOTS = "https://shots.example";
const RUN = "00000000-0000-4000-8005-0000000000cc";
const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(120, 7)]);
/** What the other port of this machine serves: an image, so only the rule keeps it out. */
const INTERNAL = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.from("internal secret")]);

/** A second server on this machine, as a trace's redirect could name it: counts every request. */
let other: Listening;
let otherRequests: string[] = [];
/** The service's own origin on plain http (the run host), where nothing listens: msw answers for it. */
let own: string;
/** Every request msw answered for the screenshots' hosts. */
let seen: string[] = [];

beforeAll(async () => {
  other = await listenOnLoopback(
    http.createServer((request, response) => {
      otherRequests.push(request.url ?? "");
      response.writeHead(200, { "content-type": "image/png" }).end(INTERNAL);
    }),
  );
  own = `http://127.0.0.1:${await refusedPort()}`;
});
afterAll(() => other?.close());

const redirect = (to: string) => () => new HttpResponse(null, { status: 302, headers: { location: to } });

/** The screenshots of the run, by the way their URL leads on. */
const shots = () => ({
  // From https to plain http on another port of this machine.
  cross: `${SHOTS}/cross.png`,
  // From the service's own http origin to another origin (the other port).
  ownAway: `${own}/own.png`,
  // Six redirects, all https.
  six: `${SHOTS}/six/0`,
  // From https down to the service's own http origin.
  down: `${SHOTS}/down.png`,
  // Five redirects, all https, to a PNG: allowed.
  five: `${SHOTS}/five/0`,
});

beforeEach(() => {
  otherRequests = [];
  seen = [];
  const s = shots();
  const counted =
    (answer: () => Response) =>
    ({ request }: { request: Request }) => {
      seen.push(request.url);
      return answer();
    };
  sandbox.use(
    route.get(`${API}/api/runs/${RUN}`, () =>
      HttpResponse.json({
        id: RUN,
        user_id: "u",
        name: "Read heading",
        browser: { type: "extension" },
        args: {},
        status: "error",
        result: { error: "no heading" },
        source: "cli",
        started_at: "2026-01-01T00:00:00Z",
        finished_at: "2026-01-01T00:00:03Z",
        script: { id: "s", version_id: "v", version_number: "1", name: "x", handle: "@demo", slug: "read_heading", host: "example.com" },
      }),
    ),
    route.get(`${API}/api/runs/${RUN}/trace`, () =>
      HttpResponse.json({
        steps: [
          { index: 0, action: "goto", ok: true, duration_ms: 5 },
          { index: 1, action: "read heading", ok: false, duration_ms: 5, error: "no heading" },
        ],
        screenshots: [
          { kind: "failure", afterStep: 1, url: s.cross },
          { kind: "last", afterStep: 1, url: s.ownAway },
          { kind: "six", afterStep: 1, url: s.six },
          { kind: "down", afterStep: 1, url: s.down },
          { kind: "five", afterStep: 1, url: s.five },
        ],
      }),
    ),
    route.get(`${SHOTS}/cross.png`, counted(redirect(`${other.url}/from-https.png`))),
    route.get(`${own}/own.png`, counted(redirect(`${other.url}/from-own.png`))),
    route.get(
      `${own}/plain.png`,
      counted(() => new HttpResponse(PNG, { headers: { "content-type": "image/png" } })),
    ),
    route.get(`${SHOTS}/down.png`, counted(redirect(`${own}/plain.png`))),
    route.get(`${SHOTS}/six/:n`, ({ request, params }) => {
      seen.push(request.url);
      const n = Number(params.n);
      return n < 6 ? redirect(`${SHOTS}/six/${n + 1}`)() : new HttpResponse(PNG, { headers: { "content-type": "image/png" } });
    }),
    route.get(`${SHOTS}/five/:n`, ({ request, params }) => {
      seen.push(request.url);
      const n = Number(params.n);
      return n < 5 ? redirect(`${SHOTS}/five/${n + 1}`)() : new HttpResponse(PNG, { headers: { "content-type": "image/png" } });
    }),
    // The other port is a real server: requests that reach it are counted there.
    route.all(`${other.url}/*`, () => passthrough()),
  );
});

/** Nothing past the rule was asked for: not the other port, not the seventh hop, not http after https. */
function nothingPastTheRule() {
  expect(otherRequests).toEqual([]);
  expect(seen).not.toContain(`${SHOTS}/six/6`);
  expect(seen).not.toContain(`${own}/plain.png`);
  // What the rule allows was asked for: the five-hop chain to its end.
  expect(seen).toContain(`${SHOTS}/five/5`);
}

test("the second server is reachable from here: a request that gets there is counted (so a count of 0 means none was sent)", async () => {
  const got = await fetchScreenshot(`${other.url}/control.png`, { httpOrigins: [other.url] });
  expect(got).toEqual({ bytes: INTERNAL, type: "image/png" });
  expect(otherRequests).toEqual(["/control.png"]);
});

describe("every hop by one rule", () => {
  test("fetchScreenshot (the library)", async () => {
    const s = shots();
    const got = Object.fromEntries(
      await Promise.all(Object.entries(s).map(async ([name, url]) => [name, await fetchScreenshot(url, { httpOrigins: [own] })] as const)),
    );
    expect(got.cross).toMatchObject({ kind: "refused", problem: expect.stringContaining("redirected from https: to plain http:") });
    expect(got.ownAway).toMatchObject({ kind: "refused", problem: expect.stringContaining(`this is ${other.url} (a redirect from ${own})`) });
    expect(got.six).toMatchObject({ kind: "refused", problem: "not fetched: https://shots.example redirected more than 5 times" });
    expect(got.down).toMatchObject({ kind: "refused", problem: expect.stringContaining("redirected from https: to plain http:") });
    expect(got.five).toEqual({ bytes: PNG, type: "image/png" });
    nothingPastTheRule();
  });

  test("the run's page (runs trace --html)", async () => {
    process.env.REDUCK_MCP_URL = own;
    const file = path.join(tempDir(), "run.html");
    const written = await reduck("runs", "trace", RUN, "--html", file);
    expect(written.exitCode).toBe(0);
    const html = readFileSync(file, "utf8");
    expect(html).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
    expect(html).not.toContain(INTERNAL.toString("base64"));
    expect(html.match(/Not embedded: not fetched/g)).toHaveLength(4);
    expect(written.stderr).toContain(`A screenshot is not on the page (not fetched: https://shots.example redirected more than 5 times): ${SHOTS}/six/0`);
    nothingPastTheRule();
  });

  test("runs trace --screenshots DIR", async () => {
    process.env.REDUCK_MCP_URL = own;
    const dir = tempDir();
    const saved = await reduck("runs", "trace", RUN, "--screenshots", dir);
    // Screenshots left out: exit 1, each said; the trace still prints, with the path of the one saved.
    expect(saved.exitCode).toBe(1);
    expect(readdirSync(dir)).toEqual([`${RUN}-five.png`]);
    expect(readFileSync(path.join(dir, `${RUN}-five.png`))).toEqual(PNG);
    expect(saved.json().screenshots[4].path).toBe(path.join(dir, `${RUN}-five.png`));
    for (const kind of ["failure", "last", "six", "down"])
      expect(saved.stderr).toMatch(new RegExp(`Error: the ${kind} screenshot was not saved \\(not fetched: `));
    nothingPastTheRule();
  });

  test("--html and --screenshots together: each screenshot is read once, saved and embedded alike", async () => {
    process.env.REDUCK_MCP_URL = own;
    const dir = tempDir();
    const file = path.join(dir, "run.html");
    const both = await reduck("runs", "trace", RUN, "--html", file, "--screenshots", path.join(dir, "shots"));
    expect(both.exitCode).toBe(1);
    expect(readdirSync(path.join(dir, "shots"))).toEqual([`${RUN}-five.png`]);
    expect(readFileSync(file, "utf8")).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
    expect(seen.filter((url) => url === `${SHOTS}/five/5`)).toHaveLength(1);
    nothingPastTheRule();
  });

  test("read_run_trace (the agent tool)", async () => {
    const client = createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: API, runBaseUrl: own, maxRetries: 0 });
    const mcp = await createMcpServer({ folder: temporaryFolder("reduck-one-reader-"), client: async () => client });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const agent = new Client({ name: "test", version: "1.0.0" });
    await agent.connect(b);
    try {
      const r = (await agent.callTool({ name: "read_run_trace", arguments: { runId: RUN } })) as {
        content: Array<{ type: string; text?: string; data?: string }>;
      };
      const text = r.content[0]!.text!;
      // The one image: the five-hop chain's PNG.
      expect(r.content.filter((c) => c.type === "image").map((c) => c.data)).toEqual([PNG.toString("base64")]);
      expect(text).toContain(`failure after step 2: left out (not fetched: https://shots.example redirected from https: to plain http:`);
      expect(text).toContain(
        `last after step 2: left out (not fetched: only https: URLs are, or the service's own origin (this is ${other.url} (a redirect from ${own})`,
      );
      expect(text).toContain("six after step 2: left out (not fetched: https://shots.example redirected more than 5 times)");
    } finally {
      await agent.close();
    }
    nothingPastTheRule();
  });
});

test("one failing run, read through the page, runs trace and read_run_trace, names the same step (counted from 1)", async () => {
  const runId = SEED_IDS.runs.error;
  const file = path.join(tempDir(), "run.html");
  expect((await reduck("runs", "trace", runId, "--html", file)).exitCode).toBe(0);
  const html = readFileSync(file, "utf8");
  expect(html).toContain('Failed at <a href="#step-2">step 2</a></strong>: <code>read title (timed out)</code>');
  // The seeded run took no screenshot: its page says why there is none.
  expect(html).toContain("None: the trace names no screenshot.");
  // errorType has its place on the page, saying where the service gives it when its record does not.
  expect(html).toContain("<dt>errorType</dt>");

  const trace = await reduck("runs", "trace", runId);
  expect(trace.stderr).toContain('Step 2 of 2 failed: read title (timed out). In the JSON it is "index": 1.');
  // The JSON keeps the service's own numbering.
  expect(trace.json().steps[1]).toMatchObject({ index: 1, ok: false });

  const client = createReduckClient({ apiKey: sandbox.store.demo.apiKey, baseUrl: API, maxRetries: 0 });
  const mcp = await createMcpServer({ folder: temporaryFolder("reduck-one-reader-"), client: async () => client });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const agent = new Client({ name: "test", version: "1.0.0" });
  await agent.connect(b);
  try {
    const r = (await agent.callTool({ name: "read_run_trace", arguments: { runId } })) as { content: Array<{ text?: string }> };
    const text = r.content[0]!.text!;
    expect(text).toContain("2 steps; step 2 failed: read title (timed out).");
    expect(text).toMatch(/\n {4}2 FAILED read title \(timed out\) · 30\.0 s — page\.title: Timeout 30000ms exceeded\n/);
    // The run's error starts with the service's own "Error:" label: said once.
    expect(text).toContain("\nError: page.title: Timeout 30000ms exceeded at line 2:");
    expect(text).not.toContain("Error: Error:");
  } finally {
    await agent.close();
  }
});
