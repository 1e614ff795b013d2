/**
 * The CLI exits as soon as its work is done: nothing it leaves behind (a connection whose answer
 * was never read, a timer) keeps the process alive until a server gets round to closing an idle
 * connection.
 *
 * Measured by who ends each connection, not by how long the process took: the CLI talks to the
 * sandbox through a relay that never closes a connection the CLI opened, except after
 * RELAY_IDLE_MS of silence (as a server's keep-alive idle timeout would, made long here). A CLI
 * that exits when its work is done closes its connections first; one that waits for the server
 * to let go is still there when the relay's idle timer fires.
 */
import net from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";

/** Far longer than a CLI needs between its last byte read and its exit, even on a loaded machine. */
const RELAY_IDLE_MS = 30_000;

interface Relayed {
  closedBy?: "the CLI" | "the relay's idle timer";
}

/** A TCP relay to `target` that holds the CLI's side of each connection open, even after the server closed its own. */
async function startHoldingRelay(target: string) {
  const upstream = new URL(target);
  const connections: Relayed[] = [];
  const server = net.createServer((client) => {
    const relayed: Relayed = {};
    connections.push(relayed);
    const server = net.connect(Number(upstream.port), upstream.hostname);
    let idle: NodeJS.Timeout | undefined;
    const end = (by: NonNullable<Relayed["closedBy"]>) => {
      relayed.closedBy ??= by;
      clearTimeout(idle);
      client.destroy();
      server.destroy();
    };
    const active = () => {
      clearTimeout(idle);
      idle = setTimeout(() => end("the relay's idle timer"), RELAY_IDLE_MS);
    };
    active();
    client.on("data", (chunk) => {
      active();
      server.write(chunk);
    });
    // The server's answers go to the CLI; the server closing its side (its own idle timeout) does not.
    server.on("data", (chunk) => {
      active();
      client.write(chunk);
    });
    client.on("end", () => end("the CLI"));
    client.on("close", () => end("the CLI"));
    client.on("error", () => end("the CLI"));
    server.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sandbox = useCliSandbox({ home: "reduck-exit-" });
let relay: Awaited<ReturnType<typeof startHoldingRelay>>;
let env: Record<string, string>;

// After the sandbox's own beforeAll (hooks run in the order they were registered).
beforeAll(async () => {
  relay = await startHoldingRelay(sandbox.server.url);
  env = { ...sandbox.env, REDUCK_API_URL: relay.url };
});

afterAll(async () => {
  await relay?.close();
});

/** Runs `reduck ...args` through the relay and says who closed each connection it opened. */
async function closers(args: string[]) {
  const before = relay.connections.length;
  const result = await runCli(args, { env });
  return { result, closedBy: relay.connections.slice(before).map((c) => c.closedBy) };
}

const LIMIT = RELAY_IDLE_MS + 30_000;

test(
  "runs delete (answered 204, no body) exits without waiting for the server to close the connection",
  async () => {
    const { result, closedBy } = await closers(["runs", "delete", SEED_IDS.runs.success, "--yes"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(sandbox.store.runs.has(SEED_IDS.runs.success)).toBe(false);
    expect(closedBy.length).toBeGreaterThan(0);
    expect(closedBy).toEqual(closedBy.map(() => "the CLI"));
  },
  LIMIT,
);

test.each([
  ["whoami", ["whoami"]],
  ["scripts get", ["scripts", "get", "reduck/mail.google.com/send_email"]],
  ["runs list", ["runs", "list"]],
  // A run has a connection of its own, not a kept-alive one.
  ["run", ["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi"]],
])(
  "%s exits without waiting for the server to close the connection",
  async (_name, args) => {
    const { result, closedBy } = await closers(args);
    // `run` names the run on stderr; nothing else is said.
    expect(result.stderr.replace(/^run [\w-]+\n/, "")).toBe("");
    expect(result.code).toBe(0);
    expect(closedBy.length).toBeGreaterThan(0);
    expect(closedBy).toEqual(closedBy.map(() => "the CLI"));
  },
  LIMIT,
);
