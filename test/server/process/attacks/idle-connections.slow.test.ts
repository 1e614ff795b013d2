// 128 connections that send nothing and never close must not lock every other client out: each is
// answered 408 once its headers are late (10 s), leaves the connection count as the server ends
// it, and is destroyed shortly after, even though the client never closes its own side (the
// attacker's sockets here keep their side open: allowHalfOpen).
import { connect, type Socket } from "node:net";
import { expect, it } from "vitest";
import { attackedSandbox } from "./fixtures/attacked-sandbox.js";

const sandbox = attackedSandbox();

/** A connection that never sends a byte and never closes its side; `ended` resolves with what the server sent before it ended. */
function idleConnection(port: number): Promise<{ socket: Socket; ended: Promise<string>; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true }, () => {
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("error", () => {});
      const ended = new Promise<string>((done) => socket.once("end", () => done(text)));
      const closed = new Promise<void>((done) => socket.once("close", () => done()));
      resolve({ socket, ended, closed });
    });
    socket.once("error", reject);
  });
}

it("128 idle connections that never close: a request is answered within 15 s, and the idle sockets are destroyed", async () => {
  const port = Number(new URL(sandbox.url).port);
  const started = Date.now();
  const idle = await Promise.all(Array.from({ length: 128 }, () => idleConnection(port)));
  try {
    // Every place is taken: a request now is refused.
    const refused = await fetch(`${sandbox.url}/api/ping`);
    expect(refused.status).toBe(503);
    // Each idle connection is answered 408 and ended by the server (the client keeps its side open).
    const answers = await Promise.all(idle.map(({ ended }) => ended));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    // Their places are free at once, though none of the clients closed.
    const ping = await fetch(`${sandbox.url}/api/ping`);
    expect(ping.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    // And the server does not keep the half-closed sockets: it destroys them after a grace period.
    // A byte written to one the server still holds is taken in silence; once it is destroyed, the
    // server's system answers with a reset, which closes the client's socket.
    const knock = setInterval(() => {
      for (const { socket } of idle) if (!socket.destroyed) socket.write("x");
    }, 200);
    try {
      await Promise.all(idle.map(({ closed }) => closed));
    } finally {
      clearInterval(knock);
    }
  } finally {
    for (const { socket } of idle) socket.destroy();
  }
}, 30_000);
