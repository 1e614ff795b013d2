/**
 * `reduck mcp --http`: the built CLI serving Streamable HTTP, as a client none of us wrote (the
 * MCP SDK's) and as a hostile web page would meet it. Every request here goes to 127.0.0.1; that
 * the server listens on loopback only is read from the system's table of listening sockets, not
 * tried from another address.
 */
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";
import { ALL_TOOLS, callTool, httpClient, mcpEnv, spawnHttpMcp, type HttpMcp } from "./support.js";

const sandbox = useCliSandbox({ desktop: {}, home: "reduck-mcp-http-" });
const signedIn = () => mcpEnv({ REDUCK_API_URL: sandbox.server.url, REDUCK_API_KEY: sandbox.store.demo.apiKey, REDUCK_DESKTOP: sandbox.desktop });

let server: HttpMcp;
beforeAll(async () => {
  server = await spawnHttpMcp(await signedIn());
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** One raw POST to the server's port on 127.0.0.1, with exactly these headers. */
function post(headers: Record<string, string>, body = INITIALIZE, path = "/mcp"): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const good = () => ({ Host: `127.0.0.1:${server.port}`, Authorization: `Bearer ${server.token}` });

describe("what it prints at start", () => {
  test("the URL on 127.0.0.1, a token, and a client configuration that works as printed", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const config = JSON.parse(/^Client configuration: (.*)$/m.exec(server.stderr())![1]!);
    expect(config).toEqual({ mcpServers: { reduck: { type: "http", url: server.url, headers: { Authorization: `Bearer ${server.token}` } } } });
    const { client, transport } = await httpClient(config.mcpServers.reduck.url, config.mcpServers.reduck.headers.Authorization.slice("Bearer ".length));
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});

describe("who may call it", () => {
  test("it listens on 127.0.0.1 only: the system's listening sockets on its port", async () => {
    const listening = async (file: string) =>
      (await readFile(file, "utf8"))
        .split("\n")
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        // local_address is HEX_IP:HEX_PORT; state 0A is LISTEN.
        .filter((f) => f[3] === "0A" && Number.parseInt(f[1]!.split(":")[1]!, 16) === server.port)
        .map((f) => f[1]!.split(":")[0]);
    const v4 = await listening(`/proc/${server.pid}/net/tcp`);
    const v6 = await listening(`/proc/${server.pid}/net/tcp6`);
    // 0100007F is 127.0.0.1 as the kernel writes it (little-endian); nothing on IPv6 at all.
    expect({ v4, v6 }).toEqual({ v4: ["0100007F"], v6: [] });
  });

  test("the same request is answered with the token, and refused without it or with a wrong one, before any session starts", async () => {
    const answered = await post(good());
    expect(answered.status).toBe(200);
    expect(answered.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);

    const { Authorization: _token, ...withoutToken } = good();
    for (const headers of [
      withoutToken,
      { ...withoutToken, Authorization: `Bearer ${server.token.slice(0, -1)}x` },
      { ...withoutToken, Authorization: server.token },
    ]) {
      const refused = await post(headers);
      expect(refused.status).toBe(401);
      expect(refused.headers["www-authenticate"]).toMatch(/^Bearer /);
      expect(refused.headers["mcp-session-id"]).toBeUndefined();
      expect(JSON.parse(refused.body).error.message).toMatch(/^Unauthorized: send the token reduck mcp --http printed at start/);
    }
  });

  test("a web page's Origin is refused, even with the token; the server's own origin and no Origin are not", async () => {
    for (const origin of ["https://evil.example", "http://127.0.0.1:1", "null", `http://127.0.0.1.evil.example:${server.port}`]) {
      const refused = await post({ ...good(), Origin: origin });
      expect(refused.status, origin).toBe(403);
      expect(JSON.parse(refused.body).error.message, origin).toContain(`Forbidden: Origin ${JSON.stringify(origin)} may not call this server`);
    }
    expect((await post({ ...good(), Origin: `http://localhost:${server.port}` })).status).toBe(200);
    expect((await post({ ...good(), Origin: `http://127.0.0.1:${server.port}` })).status).toBe(200);
  });

  test("a foreign Host (DNS rebinding: a name that resolves to 127.0.0.1) is refused, even with the token", async () => {
    for (const host of ["evil.example", `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, `localhost.evil.example:${server.port}`]) {
      const refused = await post({ ...good(), Host: host });
      expect(refused.status, host).toBe(403);
      expect(JSON.parse(refused.body).error.message, host).toContain(`Forbidden: Host ${JSON.stringify(host)} is not this server`);
    }
    expect((await post({ ...good(), Host: `localhost:${server.port}` })).status).toBe(200);
  });

  test("the Host is checked before the token: a rebinding page learns nothing about it", async () => {
    const { Authorization: _token, ...withoutToken } = good();
    expect((await post({ ...withoutToken, Host: "evil.example" })).status).toBe(403);
  });

  test("only /mcp is served", async () => {
    expect((await post(good(), INITIALIZE, "/")).status).toBe(404);
  });
});

describe("sessions", () => {
  test("a session ended by its client (DELETE) is gone: its id is answered 404, and a new one starts", async () => {
    const { client, transport } = await httpClient(server.url, server.token);
    const id = transport.sessionId!;
    expect((await callTool(client, "whoami", {})).structured.handle).toBe("@demo");
    await transport.terminateSession();
    await client.close();
    const stale = await post({ ...good(), "Mcp-Session-Id": id }, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    expect(stale.status).toBe(404);
    const again = await httpClient(server.url, server.token);
    expect(again.transport.sessionId).not.toBe(id);
    await again.transport.terminateSession();
    await again.client.close();
  });

  test("two clients at once each have their own session", async () => {
    const [a, b] = await Promise.all([httpClient(server.url, server.token), httpClient(server.url, server.token)]);
    try {
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
      const [ra, rb] = await Promise.all([callTool(a.client, "list_devices", {}), callTool(b.client, "whoami", {})]);
      expect(ra.structured.devices).toHaveLength(1);
      expect(rb.structured.handle).toBe("@demo");
    } finally {
      for (const c of [a, b]) {
        await c.transport.terminateSession();
        await c.client.close();
      }
    }
  });

  test("SIGTERM with a session open: it ends the sessions and exits 0, with nothing on stderr but its start lines", async () => {
    const own = await spawnHttpMcp(await signedIn());
    const { client } = await httpClient(own.url, own.token);
    expect((await callTool(client, "list_devices", {})).isError).toBe(false);
    const lines = own.stderr();
    expect(await own.stop()).toBe(0);
    expect(own.stderr()).toBe(lines);
    await client.close();
  });
});

describe("the token", () => {
  test("REDUCK_MCP_TOKEN is used and never printed", async () => {
    const token = "t".repeat(20) + "0123456789abcdef";
    const own = await spawnHttpMcp({ ...(await signedIn()), REDUCK_MCP_TOKEN: token });
    try {
      expect(own.stderr()).not.toContain(token);
      expect(own.stderr()).toContain("Bearer token: the one in REDUCK_MCP_TOKEN");
      expect(own.stderr()).toContain('"Authorization":"Bearer $REDUCK_MCP_TOKEN"');
      const { client, transport } = await httpClient(own.url, token);
      expect((await callTool(client, "whoami", {})).isError).toBe(false);
      await transport.terminateSession();
      await client.close();
    } finally {
      await own.stop();
    }
  });

  test("a short REDUCK_MCP_TOKEN is refused at start (exit 2), and so is a port in use", async () => {
    const short = await runCli(["mcp", "--http", "--port", "0"], { env: { ...(await signedIn()), REDUCK_MCP_TOKEN: "secret" } });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("REDUCK_MCP_TOKEN must be at least 32 characters (leave it unset for a random one)");
    expect(short.stderr).not.toContain("secret");
    const taken = await runCli(["mcp", "--http", "--port", String(server.port)], { env: await signedIn() });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain(`port ${server.port} is in use: pick another with --port, or --port 0 for a free one`);
  });

  test("--port and --allow-origin need --http", async () => {
    const r = await runCli(["mcp", "--port", "4100"], { env: await signedIn(), input: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--http");
  });
});

test("--allow-origin lets that origin's pages call it, and no other", async () => {
  const own = await spawnHttpMcp(await signedIn(), ["--allow-origin", "http://localhost:6274"]);
  try {
    const call = (origin: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port: own.port,
            path: "/mcp",
            method: "POST",
            headers: {
              Host: `127.0.0.1:${own.port}`,
              Origin: origin,
              Authorization: `Bearer ${own.token}`,
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(INITIALIZE);
      });
    expect(await call("http://localhost:6274")).toBe(200);
    expect(await call("http://localhost:6275")).toBe(403);
  } finally {
    await own.stop();
  }
});
