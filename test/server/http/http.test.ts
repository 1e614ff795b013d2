// The second door: the same handlers over real loopback HTTP, and the sandbox process around it.
// No msw interception in this file, so every request really crosses a socket.
import { createServer } from "node:net";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createHandlers, createStore, startHttpServer, type RunningHttpServer } from "../index.js";
import { parseSandboxArgs } from "../process/sandbox-options.js";
import { spawnSandbox } from "../process/sandbox-process.js";
import { present } from "../contract/present.js";
import { plainScript } from "../testing/sandbox-under-attack.js";

describe("startHttpServer", () => {
  let server: RunningHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("serves the handlers on a free loopback port", async () => {
    const store = createStore();
    server = await startHttpServer({ handlers: createHandlers(store), port: 0 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const headers = { "x-api-key": store.demo.apiKey, "content-type": "application/json" };

    const me = await fetch(`${server.url}/api/me`, { headers });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { handle: string }).handle).toBe("@demo");

    const created = await fetch(`${server.url}/api/scripts/%40demo`, {
      method: "POST",
      headers,
      body: JSON.stringify(plainScript("over_http", "Created over a socket.", "return {};")),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${server.url}/api/scripts/@demo/example.org/over_http`, { headers })).status).toBe(200);
    const deleted = await fetch(`${server.url}/api/runs/00000000-0000-4000-8005-000000000001`, { method: "DELETE", headers });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
  });

  it("answers unknown routes with a JSON 404", async () => {
    server = await startHttpServer({ handlers: createHandlers(createStore()) });
    const answer = await fetch(`${server.url}/api/nowhere?x=1`, { method: "PATCH" });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: "No such endpoint: PATCH /api/nowhere" });
  });

  it("survives a large upload it refuses without reading: over the 1 MiB API body limit, 413 before authentication", async () => {
    server = await startHttpServer({ handlers: createHandlers(createStore()) });
    const refused = await fetch(`${server.url}/api/runs/delete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.alloc(8 * 2 ** 20, 0x20),
    });
    expect(refused.status).toBe(413);
    await refused.arrayBuffer();
    expect((await fetch(`${server.url}/api/ping`)).status).toBe(200);
  });

  it("closes promptly with keep-alive connections open", async () => {
    server = await startHttpServer({ handlers: createHandlers(createStore()) });
    await (await fetch(`${server.url}/api/ping`)).arrayBuffer(); // leaves a pooled keep-alive socket
    const started = Date.now();
    await server.close();
    server = undefined;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("sandbox options", () => {
  it("defaults to port 4010 and validates --port", () => {
    expect(parseSandboxArgs([])).toEqual({ port: 4010 });
    expect(parseSandboxArgs(["--port", "4321"])).toEqual({ port: 4321 });
    expect(parseSandboxArgs(["--port=0"])).toEqual({ port: 0 });
    expect(() => parseSandboxArgs(["--port", "http"])).toThrow(/--port must be a whole number/);
    expect(() => parseSandboxArgs(["--port", "70000"])).toThrow(/--port must be a whole number/);
    expect(() => parseSandboxArgs(["--bogus"])).toThrow(/Unknown option '--bogus'/);
  });
});

/** Resolves once the sandbox has printed `count` whole lines (on its output's own events); rejects if it exits first. */
function printedLines(sandbox: ReturnType<typeof spawnSandbox>, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (sandbox.output().stdout.split("\n").length > count) resolve();
    };
    sandbox.child.stdout!.on("data", check);
    void sandbox.exited.then((code) => reject(new Error(`the sandbox exited (${code}) before printing ${count} lines:\n${sandbox.output().stderr}`)));
    check();
  });
}

describe("npm run sandbox", () => {
  it("prints the address and key, serves, and exits 0 on SIGTERM", async () => {
    const sandbox = spawnSandbox(["--port", "0"]);
    await printedLines(sandbox, 2);
    const lines = sandbox.output().stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    const url = present(/^REDUCK_API_URL=(http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] ?? "")?.[1], "REDUCK_API_URL=http://127.0.0.1:<port> on line 1");
    const key = present(/^REDUCK_API_KEY=(rk_\w+)$/.exec(lines[1] ?? "")?.[1], "REDUCK_API_KEY=rk_... on line 2");
    const me = await fetch(`${url}/api/me`, { headers: { "x-api-key": key } });
    expect(me.status).toBe(200);
    sandbox.child.kill("SIGTERM");
    expect(await sandbox.exited).toBe(0);
  });

  it("exits 1 with one line on stderr when the port is taken", async () => {
    const blocker = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const port = (blocker.address() as { port: number }).port;
    try {
      const sandbox = spawnSandbox(["--port", String(port)]);
      expect(await sandbox.exited).toBe(1);
      const { stdout, stderr } = sandbox.output();
      expect(stdout).toBe("");
      expect(stderr).toBe(`sandbox: port ${port} is already in use: stop what holds it or pick another with --port N\n`);
    } finally {
      blocker.close();
    }
  });

  it("exits 2 on a bad --port", async () => {
    const sandbox = spawnSandbox(["--port", "lots"]);
    expect(await sandbox.exited).toBe(2);
    expect(sandbox.output().stderr).toMatch(/^sandbox: --port must be a whole number/);
  });
});
