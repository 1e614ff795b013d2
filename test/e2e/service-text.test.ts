/**
 * Text from the service reaches a terminal as text. A server answers every field a command prints
 * with ESC sequences (clear the screen, retitle the window), BEL, NUL, CR, C1 controls and bidi
 * overrides; the built CLI's human output, stdout and stderr, error lines included, holds not one
 * of those bytes raw (each is shown as its `\u001b`-style escape), piped or on a real terminal.
 * `--json` keeps the service's strings exactly.
 */
import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { BIN, baseEnv } from "../support/cli.js";
import { startFaultServer, type Fault, type FaultServer } from "../faults/fault-server.js";
import { openTerminal } from "./terminal.js";

/** Everything a terminal acts on rather than shows: C0 but LF and TAB, DEL, C1, U+2028/9, bidi controls. */
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = "Evil\u001b[2J\u001b]0;pwned\u0007 bell\u0007 nul\u0000 cr\roverwrite csi\u009b31m rlo\u202etxt.exe lri\u2066x\u2069 del\u007f";
/** What a line end inside a one-line field could fake: a second line of the CLI's own. */
const FAKE_LINE = `${HOSTILE}\nError: a line the service wrote`;

const VERSION_ID = "00000000-0000-4000-8004-000000000001";
const FAILED_RUN = "00000000-0000-4000-8005-000000000001";
const DONE_RUN = "00000000-0000-4000-8005-000000000002";
const page = (data: unknown[]) => ({ data, hasNextPage: false, totalCount: data.length });

const version = {
  id: VERSION_ID,
  script_id: "s1",
  version_number: 1,
  parent_version_id: null,
  language: "typescript",
  logged_in: false,
  side_effects: HOSTILE,
  draft: false,
  note: FAKE_LINE,
  created_by: { handle: "reduck", name: HOSTILE },
  created_at: "2026-01-01T00:00:00Z",
  content: `return "${HOSTILE}";\n`,
  input_schema: {
    type: "object",
    properties: {
      [HOSTILE]: { type: "string", description: FAKE_LINE },
      kind: { enum: [HOSTILE, "plain"] },
      doc: { type: "string", format: "file", description: FAKE_LINE },
    },
    required: [HOSTILE],
  },
  output_schema: { type: "object", properties: { out: { type: "string", description: FAKE_LINE } } },
};
const script = {
  id: "s1",
  name: FAKE_LINE,
  slug: "s",
  host: "a.com",
  description: FAKE_LINE,
  visibility: HOSTILE,
  current_version_id: VERSION_ID,
  archived_at: null,
  author: { kind: "project", handle: "reduck", name: HOSTILE, approval: "official" },
  version_count: 1,
  human_required: false,
  current_version: version,
};
const run = (id: string, result: unknown) => ({
  id,
  user_id: "u1",
  name: FAKE_LINE,
  browser: { type: "managed", region: HOSTILE, country: "DE" },
  args: { to: HOSTILE },
  status: HOSTILE,
  result,
  source: HOSTILE,
  started_at: "2026-01-01T00:00:00Z",
  finished_at: "2026-01-01T00:00:02Z",
  script: { id: "s1", version_id: VERSION_ID, version_number: "1", name: HOSTILE, handle: "reduck", slug: "s", host: "a.com" },
});

const routes: Record<string, Fault> = {
  "GET /api/me": {
    json: { id: "u1", name: FAKE_LINE, email: HOSTILE, handle: "@demo", role: null, projects: [{ handle: "acme", name: HOSTILE, role: HOSTILE }], usage: null },
  },
  "GET /api/scripts": { json: page([script]) },
  "GET /api/scripts/reduck/a.com/s": { json: script },
  "GET /api/scripts/reduck/a.com/s/versions": { json: page([version]) },
  [`GET /api/scripts/reduck/a.com/s/versions/${VERSION_ID}`]: { json: version },
  "GET /api/runs": { json: page([run(FAILED_RUN, { error: FAKE_LINE })]) },
  [`GET /api/runs/${FAILED_RUN}`]: { json: run(FAILED_RUN, { error: `${HOSTILE}\n  at line 2` }) },
  [`GET /api/runs/${DONE_RUN}`]: { json: run(DONE_RUN, { result: { text: HOSTILE } }) },
  "GET /api/devices": {
    json: [
      { id: "d1", name: HOSTILE, browser: HOSTILE, os: HOSTILE, file_access: true, reachable: true, created_at: "2026-01-01T00:00:00Z", concurrency_budget: 1 },
    ],
  },
  // The service's own error message, and its per-field messages.
  "GET /api/scripts/reduck/a.com/refused": { status: 403, json: { error: FAKE_LINE, variables: { [HOSTILE]: [FAKE_LINE] } } },
  "GET /api/scripts/reduck/a.com/t": { json: { ...script, slug: "t", current_version: { ...version, input_schema: { type: "object" } } } },
  "POST /run": { json: { error: FAKE_LINE, externalMessage: FAKE_LINE, errorType: HOSTILE, runId: FAILED_RUN } },
};

/** The CLI's raw bytes on stdout and stderr, piped. */
function reduck(server: FaultServer, args: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...baseEnv(), NO_COLOR: "1", REDUCK_API_URL: server.url, REDUCK_API_KEY: "rk_test_service_text" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}

/** The raw bytes no terminal may be handed: C0 but LF and TAB, and DEL (C1 and bidi are checked in the text). */
const rawControlBytes = (bytes: Buffer) => [...bytes].filter((b) => (b < 0x20 && b !== 0x0a && b !== 0x09) || b === 0x7f);

async function withServer<T>(use: (server: FaultServer) => Promise<T>): Promise<T> {
  const server = await startFaultServer(routes);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

describe("human output shows the service's text, never obeys it", () => {
  test.each(
    [
      { args: ["whoami"], code: 0 },
      { args: ["scripts", "list"], code: 0 },
      { args: ["scripts", "get", "reduck/a.com/s", "--code"], code: 0 },
      { args: ["read", "reduck/a.com/s"], code: 0 },
      { args: ["scripts", "versions", "list", "reduck/a.com/s"], code: 0 },
      { args: ["scripts", "versions", "get", "reduck/a.com/s", VERSION_ID, "--code"], code: 0 },
      { args: ["runs", "list"], code: 0 },
      { args: ["runs", "get", FAILED_RUN], code: 0 },
      { args: ["runs", "get", DONE_RUN], code: 0 },
      { args: ["devices", "list"], code: 0 },
      { args: ["scripts", "get", "reduck/a.com/refused"], code: 1 },
      { args: ["run", "--script", "reduck/a.com/t"], code: 1 },
    ].map((c) => ({ ...c, name: c.args.join(" ") })),
  )("reduck $name", async ({ args, code }) => {
    const result = await withServer((server) => reduck(server, args));
    const stdout = result.stdout.toString("utf8");
    const stderr = result.stderr.toString("utf8");
    expect(result.code, stderr).toBe(code);
    expect(rawControlBytes(result.stdout)).toEqual([]);
    expect(rawControlBytes(result.stderr)).toEqual([]);
    expect(stdout).not.toMatch(ACTING);
    expect(stderr).not.toMatch(ACTING);
    // Shown, not dropped: the escapes are there to read.
    expect(stdout + stderr).toContain("\\u001b[2J");
    expect(stdout + stderr).toContain("\\u202e");
    // An error is one line: the service's line end cannot start a line of its own. Lines after it
    // are the CLI's own hints, indented (a failed run's says how to see what it did).
    if (code !== 0) {
      const [first, ...hints] = stderr.trim().split("\n");
      expect(first, stderr).toMatch(/^Error: .*Evil.*Error: a line the service wrote/);
      for (const hint of hints) expect(hint, stderr).toMatch(/^ {2}[a-z][a-z ]+: reduck /);
    }
    expect(stdout + stderr).not.toMatch(/^Error: a line the service wrote/m);
  });

  test("on a real terminal too (tables laid out to its width, errors)", async () => {
    await withServer(async (server) => {
      const env = { REDUCK_API_URL: server.url, REDUCK_API_KEY: "rk_test_service_text" };
      for (const args of [["scripts", "list"], ["whoami"], ["runs", "get", FAILED_RUN], ["scripts", "get", "reduck/a.com/refused"]]) {
        const { output } = await openTerminal(args, { env, columns: 100 }).exited;
        // The terminal's own line ends are CR LF; nothing else acts.
        const shown = output.replace(/\r\n/g, "\n");
        expect(shown, args.join(" ")).not.toMatch(ACTING);
        expect(shown, args.join(" ")).toContain("\\u001b");
      }
    });
  });

  test("--json prints the service's strings exactly", async () => {
    const result = await withServer((server) => reduck(server, ["scripts", "get", "reduck/a.com/s", "--json"]));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.toString("utf8"))).toEqual(script);
  });
});
