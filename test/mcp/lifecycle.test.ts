/**
 * How `reduck mcp` starts and stops, as MCP clients and people meet it: the handshake without
 * a credential, the end of stdin, and a person starting it on a terminal.
 */
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { BIN, runCli } from "../support/cli.js";
import { ALL_TOOLS, callTool, connectClient, mcpEnv } from "./support.js";
import { useCliSandbox } from "../support/sandbox.js";

const sandbox = useCliSandbox({ desktop: {}, home: "reduck-lifecycle-" });

const signedIn = () => mcpEnv({ REDUCK_API_URL: sandbox.server.url, REDUCK_API_KEY: sandbox.store.demo.apiKey, REDUCK_DESKTOP: sandbox.desktop });

const message = (m: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;
const INITIALIZE = message({
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } },
});
const INITIALIZED = message({ method: "notifications/initialized" });

describe("without a credential", () => {
  test("the handshake is answered and every tool says how to set one", async () => {
    const env = await mcpEnv({ REDUCK_API_URL: sandbox.server.url, REDUCK_DESKTOP: sandbox.desktop });
    const { client } = await connectClient(env);
    const runsBefore = sandbox.store.runs.size;
    try {
      expect(client.getServerVersion()?.name).toBe("reduck");
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(ALL_TOOLS.length);
      for (const [tool, args] of [
        ["whoami", {}],
        ["list_scripts", {}],
        ["list_runs", {}],
        ["read_script", { address: "reduck/mail.google.com/send_email" }],
        ["run_script", { script: { address: "reduck/mail.google.com/send_email", args: { to: "a@b.c", subject: "x" } } }],
      ] as const) {
        const r = await callTool(client, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text, tool).toContain(`not signed in to ${sandbox.server.url}`);
        expect(r.text, tool).toContain('"env": { "REDUCK_API_KEY": "rk_..." }');
        expect(r.text, tool).toContain("npx -y reduck-client mcp");
      }
      expect(sandbox.store.runs.size).toBe(runsBefore);
    } finally {
      await client.close();
    }
  });
});

describe("when stdin ends", () => {
  test.each([
    ["signed in", signedIn],
    ["without a credential", () => mcpEnv({ REDUCK_API_URL: sandbox.server.url })],
  ])("an empty stdin (</dev/null) exits 0 at once, %s", async (_how, env) => {
    // Synchronous is fine: with nothing to answer, the server makes no request to the sandbox.
    const exit = spawnSync(process.execPath, [BIN, "mcp"], { env: await env(), stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", timeout: 60_000 });
    expect({ code: exit.status, stdout: exit.stdout, stderr: exit.stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("what was asked before stdin ended is answered, then it exits 0", async () => {
    const runsBefore = sandbox.store.runs.size;
    const exit = await runCli(["mcp"], {
      env: await signedIn(),
      input:
        INITIALIZE +
        INITIALIZED +
        message({ id: 2, method: "tools/call", params: { name: "list_scripts", arguments: { handle: "reduck", host: "docusign.com" } } }) +
        message({
          id: 3,
          method: "tools/call",
          params: { name: "run_script", arguments: { script: { address: "reduck/mail.google.com/send_email", args: { to: "a@b.c", subject: "last words" } } } },
        }),
    });
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe("");
    const answers = new Map(
      exit.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .map((m) => [m.id, m]),
    );
    expect([...answers.keys()].sort()).toEqual([1, 2, 3]);
    expect(answers.get(2).result.structuredContent.scripts[0].address).toBe("reduck/docusign.com/upload_document");
    expect(answers.get(3).result.structuredContent).toMatchObject({ status: "completed", result: { subject: "last words" } });
    expect(sandbox.store.runs.size).toBe(runsBefore + 1);
  });
});

describe("started by a person on a terminal", () => {
  test("one line on stderr says it waits for an MCP client and how to add it to one", async () => {
    const env = await signedIn();
    const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    // `script` gives the command a pseudo-terminal; closing our end sends it an end of file.
    const child = spawn("script", ["-qfc", `${quote(process.execPath)} ${quote(BIN)} mcp`, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
    let screen = "";
    const waiting = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk) => {
        screen += chunk;
        if (screen.includes("\n")) resolve();
      }),
    );
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    await waiting;
    child.stdin.end();
    expect(await closed).toBe(0);
    const lines = screen.split(/\r?\n/).filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^reduck mcp is waiting for an MCP client on stdio/);
    expect(lines[0]).toContain("claude mcp add reduck -- npx -y reduck-client mcp");
  });
});
