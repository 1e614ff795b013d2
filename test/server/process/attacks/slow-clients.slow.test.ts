// Slow and many clients. Headers must arrive within 10 s and a body keep up
// 1 MiB/s after its first 10 s (408 otherwise); a connection over the cap (128) is answered 503.
// Each refusal is logged; a run beside the attack succeeds and the server answers afterwards.
import { connect, type Socket } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { BESIDE, MiB } from "../../testing/sandbox-under-attack.js";
import { attackedSandbox } from "./fixtures/attacked-sandbox.js";

const sandbox = attackedSandbox();
let port = 0;

beforeAll(() => {
  port = Number(new URL(sandbox.url).port);
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** What the server sent on a socket until it closed it (or `ms` passed). */
function answerOf(socket: Socket, ms: number): Promise<{ text: string; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let text = "";
    const timer = setTimeout(() => (socket.destroy(), resolve({ text, afterMs: Date.now() - started })), ms);
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    socket.on("error", () => {});
    socket.once("close", () => (clearTimeout(timer), resolve({ text, afterMs: Date.now() - started })));
  });
}

const BOUNDARY = "reduck-attack-boundary";

function multipartHead(size: number): { head: Buffer; tail: Buffer; length: number } {
  const spec = JSON.stringify({
    browser: "extension",
    script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "Slow one" } },
  });
  const head = Buffer.from(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="spec"\r\n\r\n${spec}\r\n` +
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="0:attachment"; filename="attachment"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return { head, tail, length: head.length + size + tail.length };
}

function runRequestHead(length: number): string {
  return `POST /run HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nx-api-key: ${sandbox.key}\r\ncontent-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
}

describe("slow and many clients", () => {
  it("408 for headers that never end, and for a body that trickles; both logged", async () => {
    const beside = sandbox.createAndRun(BESIDE);
    const headers = await open();
    headers.write(`POST /run HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
    const body = await open();
    const { head, length } = multipartHead(50 * MiB);
    body.write(runRequestHead(length));
    body.write(head);
    const [headersAnswer, bodyAnswer] = await Promise.all([answerOf(headers, 20_000), answerOf(body, 20_000)]);
    expect(headersAnswer.text).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(headersAnswer.afterMs).toBeGreaterThan(9_000);
    expect(headersAnswer.afterMs).toBeLessThan(13_000);
    expect(bodyAnswer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyAnswer.text).toMatch(/the request's body arrived too slowly/);
    expect(bodyAnswer.afterMs).toBeLessThan(13_000);
    expect(await beside).toMatchObject({ status: 200, body: { result: { beside: "fine" } } });
    expect(sandbox.stderr()).toMatch(/408: the request's headers did not arrive within 10 s/);
    expect(sandbox.stderr()).toMatch(/408 POST \/run: the request's body arrived too slowly/);
    expect((await sandbox.call("GET", "/api/ping")).status).toBe(200);
  }, 30_000);

  it("a body that keeps up 1 MiB/s may take longer than 10 s", async () => {
    const size = 13 * MiB;
    const { head, tail, length } = multipartHead(size);
    const socket = await open();
    const answer = answerOf(socket, 30_000);
    socket.write(runRequestHead(length));
    socket.write(head);
    const chunk = Buffer.alloc(128 * 1024, 7);
    const started = Date.now();
    for (let sent = 0; sent < size; sent += chunk.length) {
      socket.write(chunk);
      // About 1.3 MiB/s: the whole body takes 10 s.
      await new Promise((resolve) => setTimeout(resolve, 95));
    }
    // Not end(): a client that half-closes its side has its request aborted by Node.
    socket.write(tail);
    const { text } = await answer.catch(() => ({ text: "" }));
    expect(Date.now() - started).toBeGreaterThan(9_500);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  }, 40_000);

  it("503 for a request on a connection over the cap of 128; served again once they close", async () => {
    // The run beside goes on a connection opened before the flood.
    const slug = await sandbox.create(BESIDE);
    const besideSocket = await open();
    const run = JSON.stringify({ browser: "extension", script: { host: "example.org", slug, args: {} } });
    besideSocket.write(
      `POST /run HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${sandbox.key}\r\ncontent-type: application/json\r\ncontent-length: ${run.length}\r\nconnection: close\r\n\r\n${run}`,
    );
    const beside = answerOf(besideSocket, 20_000);
    const idle: Socket[] = [];
    try {
      for (let i = 0; i < 130; i++) idle.push(await open());
      const extra = await open();
      extra.write(`GET /api/ping HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
      const { text } = await answerOf(extra, 10_000);
      expect(text).toMatch(/^HTTP\/1\.1 503 Service Unavailable/);
      expect(text).toMatch(/retry-after: 1/i);
      expect(text).toMatch(/too many open connections/);
    } finally {
      for (const socket of idle) socket.destroy();
    }
    const besideAnswer = (await beside).text;
    expect(besideAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(besideAnswer).toContain('"beside":"fine"');
    expect(sandbox.stderr()).toMatch(/503 GET \/api\/ping: too many open connections/);
    // The closed sockets are counted out as they close.
    for (let tries = 0; ; tries++) {
      const ping = await fetch(`${sandbox.url}/api/ping`).catch(() => undefined);
      if (ping?.status === 200) break;
      expect(tries).toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 30_000);
});
