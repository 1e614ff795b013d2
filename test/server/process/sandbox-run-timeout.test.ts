// `npm run sandbox -- --run-timeout SECONDS`: a run that outlives it fails, the sandbox process
// keeps serving, and neither an endless loop nor process.exit in a script body can stop it.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnSandbox } from "./sandbox-process.js";
import { parseSandboxArgs } from "./sandbox-options.js";
import { present } from "../contract/present.js";

describe("--run-timeout", () => {
  it("takes a number of seconds above 0", () => {
    expect(parseSandboxArgs(["--run-timeout", "60"])).toEqual({ port: 4010, runTimeoutSeconds: 60 });
    expect(parseSandboxArgs(["--run-timeout=0.5"])).toEqual({ port: 4010, runTimeoutSeconds: 0.5 });
    for (const bad of ["0", "-1", "soon", "", "1e3"]) {
      expect(() => parseSandboxArgs([`--run-timeout=${bad}`])).toThrow(
        `--run-timeout must be a number of seconds above 0, e.g. --run-timeout 60 (got "${bad}")`,
      );
    }
  });

  it("exits 2 on a bad value", async () => {
    const sandbox = spawnSandbox(["--run-timeout", "forever"]);
    expect(await sandbox.exited).toBe(2);
    expect(sandbox.output().stderr).toBe('sandbox: --run-timeout must be a number of seconds above 0, e.g. --run-timeout 60 (got "forever")\n');
  });
});

describe("the sandbox process under hostile scripts", () => {
  let desktop: string;
  let sandbox: ReturnType<typeof spawnSandbox>;
  let url: string;
  let key: string;

  beforeAll(async () => {
    desktop = mkdtempSync(path.join(os.tmpdir(), "reduck-sandbox-timeout-"));
    sandbox = spawnSandbox(["--port", "0", "--desktop", desktop, "--run-timeout", "1"]);
    // stderr's line comes last: once it is there, both stdout lines are too.
    await vi.waitFor(() => expect(sandbox.output().stderr).toContain("desktop folder"), { timeout: 50_000, interval: 25 });
    url = present(sandbox.output().stdout.match(/^REDUCK_API_URL=(.+)$/m)?.[1], "REDUCK_API_URL= on stdout");
    key = present(sandbox.output().stdout.match(/^REDUCK_API_KEY=(.+)$/m)?.[1], "REDUCK_API_KEY= on stdout");
  });
  afterAll(async () => {
    sandbox.child.kill("SIGTERM");
    await sandbox.exited;
    rmSync(desktop, { recursive: true, force: true });
  });

  async function post(pathname: string, body: unknown) {
    const response = await fetch(url + pathname, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { error?: string; runId?: string; result?: unknown } };
  }

  async function createAndRun(slug: string, content: string) {
    const created = await post("/api/scripts/@demo", {
      host: "example.org",
      slug,
      description: "A hostile script",
      content,
      input_schema: { type: "object" },
      output_schema: { type: "object" },
      side_effects: "none",
    });
    expect(created.status).toBe(201);
    return post("/run", { browser: "extension", script: { host: "example.org", slug } });
  }

  it("says how long a run may take", () => {
    expect(sandbox.output().stderr).toContain("a run may take 1 s");
  });

  it("fails an endless loop after --run-timeout, and process.exit, and keeps serving", async () => {
    const loop = await createAndRun("loop", "for (;;) {}");
    expect(loop).toMatchObject({ status: 422, body: { error: "script timed out after 1 s", runId: expect.any(String) } });
    const exit = await createAndRun("exit", "process.exit(0);");
    expect(exit).toMatchObject({ status: 422, body: { error: "ReferenceError: process is not defined" } });

    const runs = await fetch(`${url}/api/runs?pageSize=100`, { headers: { "x-api-key": key } });
    const listed = (await runs.json()) as { data: Array<{ id: string; status: string; result: unknown }> };
    expect(listed.data.find((r) => r.id === loop.body.runId)).toMatchObject({ status: "error", result: { error: "script timed out after 1 s" } });
    expect(listed.data.find((r) => r.id === exit.body.runId)).toMatchObject({ status: "error" });

    const fine = await createAndRun("fine", "return { ok: true };");
    expect(fine).toMatchObject({ status: 200, body: { result: { ok: true } } });
    expect(sandbox.child.exitCode).toBeNull();
  });
});
