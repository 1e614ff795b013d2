// Long runs and batches over real loopback HTTP (startHttpServer over the same handlers; the cases
// are in fixtures/long-runs-cases.ts), and the sandbox process's own door to them: `--devices N` and the
// request log at GET /__sandbox/requests.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createHandlers, createStore, startHttpServer, type SandboxStore, type RunningHttpServer } from "../../index.js";
import { longRunCases, sleep } from "./fixtures/long-runs-cases.js";
import { REQUEST_LOG_PATH } from "../request-log.js";
import { parseSandboxArgs } from "../../process/sandbox-options.js";
import { startSandboxProcess } from "../../process/sandbox-process.js";
import type { LoggedRequest } from "../../store/store.js";

let store: SandboxStore;
let server: RunningHttpServer;

describe("over HTTP", () => {
  beforeEach(async () => {
    store = createStore({ browser: "simulated", pollIntervalMs: 250 });
    server = await startHttpServer({ handlers: createHandlers(store) });
    vi.spyOn(console, "error");
  });
  afterEach(async () => {
    expect(console.error).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    await server.close();
  });

  longRunCases(() => ({
    store,
    runUrl: `${server.url}/run`,
    runHost: server.url,
    api: server.url,
    requests: async () => ((await (await fetch(`${server.url}${REQUEST_LOG_PATH}`)).json()) as { requests: LoggedRequest[] }).requests,
  }));
});

describe("the sandbox process", () => {
  let desktop: string;
  let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;

  beforeAll(async () => {
    desktop = mkdtempSync(path.join(os.tmpdir(), "reduck-long-runs-"));
    sandbox = await startSandboxProcess(desktop, { browser: "simulated", args: ["--devices", "2"] });
  }, 60_000);
  afterAll(async () => {
    sandbox?.stop();
    await sandbox?.exited;
    rmSync(desktop, { recursive: true, force: true });
  });

  const post = async (body: unknown) => {
    const response = await fetch(`${sandbox.env.REDUCK_API_URL}/run`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": sandbox.env.REDUCK_API_KEY! },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  it('--devices 2: "extension" is refused, listing both paired browsers', async () => {
    const devices = await (await fetch(`${sandbox.env.REDUCK_API_URL}/api/devices`, { headers: { "x-api-key": sandbox.env.REDUCK_API_KEY! } })).json();
    expect(devices).toHaveLength(2);
    const refused = await post({ browser: "extension", script: sleep(0) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(`(${devices.map((d: { id: string }) => d.id).join(", ")})`);
  });

  it("logs POST /run once and each poll, readable at GET /__sandbox/requests", async () => {
    const answered = await post({ waitForSeconds: 1, scripts: [sleep(1.5)] });
    expect(answered.status).toBe(202);
    const { batchId } = answered.body;
    let polls = 0;
    for (let status = answered.body.status; status === "running"; polls++) {
      await new Promise((resolve) => setTimeout(resolve, answered.body.retryAfterMs));
      const polled = await fetch(`${sandbox.env.REDUCK_API_URL}/batches/${batchId}`, { headers: { "x-api-key": sandbox.env.REDUCK_API_KEY! } });
      status = ((await polled.json()) as { status: string }).status;
      expect(polls).toBeLessThan(20);
    }
    expect(polls).toBeGreaterThanOrEqual(1);
    const { requests } = (await (await fetch(`${sandbox.env.REDUCK_API_URL}${REQUEST_LOG_PATH}`)).json()) as { requests: LoggedRequest[] };
    expect(requests.filter((r) => r.method === "POST" && r.path === "/run")).toHaveLength(2);
    expect(requests.filter((r) => r.path === `/batches/${batchId}`)).toHaveLength(polls);
    // Nothing secret: the log holds methods, paths and times only.
    expect(JSON.stringify(requests)).not.toContain(sandbox.env.REDUCK_API_KEY!);
  });

  it("parses --devices", () => {
    expect(parseSandboxArgs(["--devices", "0"])).toEqual({ port: 4010, devices: 0 });
    expect(() => parseSandboxArgs(["--devices", "two"])).toThrow(/--devices must be a whole number/);
  });
});
