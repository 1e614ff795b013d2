// One request must not be able to poison the sandbox: JSON nested deeper than
// MAX_NESTING is refused with 400 before anything recursive touches it, and no run, script or
// trace can be left holding a value that later breaks a listing.
import { describe, expect, it } from "vitest";
import { useSandboxWithClient } from "./sandbox-harness.js";
import { MAX_NESTING, nestingProblem } from "../contract/nesting.js";

const API = "https://reduck.ai";
const RUN_URL = "https://mcp.reduck.ai/run";
const sandbox = useSandboxWithClient({ fresh: true, selfCheck: true });

/** JSON text of arrays `levels` deep: `[[[...]]]`. */
const arrays = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

async function send(method: string, url: string, body?: string | FormData): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { "x-api-key": sandbox.store.demo.apiKey };
  if (typeof body === "string") headers["content-type"] = "application/json";
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const sendEmail = (args: string) =>
  `{"handle":"reduck","host":"mail.google.com","slug":"send_email","args":{"to":"me@example.com","subject":"Hi","deep":${args}}}`;

/** Adds demo's script example.org/<slug> with this body and runs it: the answer of POST /run. */
async function runNew(slug: string, content: string): Promise<{ status: number; body: any }> {
  sandbox.store.addScript({ handle: "@demo", host: "example.org", slug, language: "javascript", content });
  return send("POST", RUN_URL, JSON.stringify({ browser: "extension", script: { host: "example.org", slug } }));
}

/** Every listing a poisoned record could break. */
async function expectListingsWork(): Promise<void> {
  for (const path of ["/api/runs", "/api/runs?pageSize=100", "/api/scripts/@demo", "/api/scripts"]) {
    expect((await send("GET", API + path)).status, path).toBe(200);
  }
}

describe("nesting limit", () => {
  it("measures depth without recursion, and names the field that goes too deep", () => {
    expect(nestingProblem(JSON.parse(arrays(MAX_NESTING)))).toBeNull();
    expect(nestingProblem(JSON.parse(arrays(MAX_NESTING + 1)))).toEqual({ field: "body", message: expect.stringMatching(/^nests deeper than 64 levels/) });
    expect(nestingProblem(JSON.parse(`{"script":{"args":{"deep":${arrays(1_000_000)}}}}`))?.field).toBe("script.args.deep");
    expect(nestingProblem(JSON.parse(`{"scripts":[{},{"args":{"deep":${arrays(100)}}}]}`))?.field).toBe("scripts.1.args.deep");
    expect(nestingProblem("a string", 0)).toBeNull();
  });

  it("refuses a 40 KB run request with args 20,000 deep with 400, and every listing still answers", async () => {
    const before = sandbox.store.runsOf(sandbox.store.demo.userId).length;
    const body = `{"browser":"extension","script":${sendEmail(arrays(20_000))}}`;
    expect(body.length).toBeGreaterThan(40_000);
    const refused = await send("POST", RUN_URL, body);
    expect(refused).toEqual({
      status: 400,
      body: {
        error: "Invalid run request: script.args.deep nests deeper than 64 levels (objects and arrays inside each other): flatten it",
        variables: { "script.args.deep": ["nests deeper than 64 levels (objects and arrays inside each other): flatten it"] },
      },
    });
    expect(sandbox.store.runsOf(sandbox.store.demo.userId).length).toBe(before);
    await expectListingsWork();
  });

  it("refuses the same in a multipart spec part, and in a step of several", async () => {
    const form = new FormData();
    form.append("spec", `{"browser":"extension","script":${sendEmail(arrays(20_000))}}`);
    const multipart = await send("POST", RUN_URL, form);
    expect(multipart.status).toBe(400);
    expect(multipart.body.variables).toEqual({ "script.args.deep": [expect.stringMatching(/^nests deeper than 64 levels/)] });
    const batch = await send("POST", RUN_URL, `{"browser":"extension","scripts":[${sendEmail('"fine"')},${sendEmail(arrays(5_000))}]}`);
    expect(batch.status).toBe(400);
    expect(Object.keys(batch.body.variables)).toEqual(["scripts.1.args.deep"]);
    await expectListingsWork();
  });

  it("accepts a run request exactly at the limit", async () => {
    // The request object, script and args make three levels; the argument makes the rest.
    const ran = await send("POST", RUN_URL, `{"browser":"extension","script":{"host":"example.org","slug":"echo","args":{"deep":${arrays(MAX_NESTING - 3)}}}}`);
    expect(ran.status).toBe(404); // no such script: it got past the depth check to the lookup
    expect(ran.body.error).toBe("No such script @demo/example.org/echo");
  });

  it("refuses a catalogue body with a schema nested too deep, and the catalogue still lists", async () => {
    const schema = `{"type":"object","properties":{"x":${'{"type":"array","items":'.repeat(10_000)}{"type":"string"}${"}".repeat(10_000)}}}`;
    const created = await send(
      "POST",
      `${API}/api/scripts/@demo`,
      `{"host":"example.org","slug":"deep","description":"Too deep","content":"return {};","input_schema":${schema},"output_schema":{},"side_effects":"none"}`,
    );
    expect(created.status).toBe(400);
    expect(created.body.variables).toEqual({ "input_schema.properties.x.items": [expect.stringMatching(/^nests deeper than 64 levels/)] });
    expect(sandbox.store.findScriptByAddress("@demo", "example.org", "deep")).toBeUndefined();
    await expectListingsWork();
  });

  it("fails a run whose script returns, or hands the page, a value nested too deep; listings and traces still answer", async () => {
    const result = await runNew("deep_result", "let v = {}; for (let i = 0; i < 5000; i++) v = { v }; return v;");
    expect(result.status).toBe(422);
    expect(result.body.error).toBe("Error: the script's result nests deeper than 64 levels (objects and arrays inside each other)");

    const options = await runNew(
      "deep_options",
      "let v = {}; for (let i = 0; i < 5000; i++) v = { v }; await builtins.goto('https://example.org/', v); return {};",
    );
    expect(options.status).toBe(422);
    expect(options.body.error).toBe("RangeError: builtins.goto: its arguments nest deeper than 64 levels");
    await expectListingsWork();
    for (const runId of [result.body.runId, options.body.runId]) {
      expect((await send("GET", `${API}/api/runs/${runId}`)).status).toBe(200);
      expect((await send("GET", `${API}/api/runs/${runId}/trace`)).status).toBe(200);
    }
  });
});
