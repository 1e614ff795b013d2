/**
 * The agreement tests: the client's limits and path rule (from its source) against what the
 * sandbox (`@reduck-client/sandbox`, whose rules are its own, written from the service
 * description) does over real loopback HTTP. Each limit is probed at the client's value and one
 * byte past it, on both sides, so a client limit that drifts by one byte in either direction
 * fails here (test/agreement/limit-mutations.slow.test.ts proves that it does).
 */
import http from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHandlers, createStore, startHttpServer, type SandboxStore, type RunningHttpServer } from "@reduck-client/sandbox";
import { createReduckClient, MAX_FILE_BYTES, MAX_JSON_BODY_BYTES, relativePathProblem, runScript, type ReduckClient } from "../../src/index.js";
import { sparseFile, temporaryFolder } from "../support/files.js";

const uploadDocument = { handle: "reduck", host: "docusign.com", slug: "upload_document" };
let store: SandboxStore;
let server: RunningHttpServer;
let client: ReduckClient;
let dir: string;
/** Byte lengths of the JSON run requests the client put on the wire, newest last. */
const sentJsonBodies: number[] = [];

beforeAll(async () => {
  store = createStore({ browser: "simulated" });
  server = await startHttpServer({ handlers: createHandlers(store) });
  // The client's own fetch option, here to read what it sends (then sent on, unchanged).
  const recording: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string") sentJsonBodies.push(Buffer.byteLength(init.body));
    return fetch(input, init);
  };
  client = createReduckClient({ apiKey: store.demo.apiKey, baseUrl: server.url, maxRetries: 0, fetch: recording });
  dir = temporaryFolder("reduck-agreement-");
});
afterAll(async () => {
  await server?.close();
});

/** A sparse file of `size` bytes. */
const fileOf = (size: number) => sparseFile(dir, `${size}.bin`, size);

/**
 * Sends `size` bytes as one file part straight to the sandbox, bypassing the client's checks, and
 * resolves with the status it answers. Over node:http, which hands over an answer that comes while
 * the body is still going out (the sandbox refuses a part as soon as it passes the limit); a write
 * that fails after that answer is the refusal's end, not a fault.
 */
function sandboxStatusForPart(size: number): Promise<number> {
  const boundary = "reduck-agreement-boundary";
  const spec = JSON.stringify({ browser: "extension", script: { ...uploadDocument, args: { documentName: "raw.bin" } } });
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="spec"\r\n\r\n${spec}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="0:document"; filename="raw.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(`${server.url}/run`, {
      method: "POST",
      headers: { "x-api-key": store.demo.apiKey, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    request.on("response", (response) => {
      answered = true;
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(1024 * 1024);
    async function* body() {
      yield head;
      for (let left = size; left > 0 && !answered; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
      yield tail;
    }
    Readable.from(body()).pipe(request);
  });
}

describe("a file of the client's MAX_FILE_BYTES", () => {
  test("exactly the limit: the client sends it and the sandbox takes it whole", async () => {
    const { data, error } = await runScript({
      client,
      browser: "extension",
      script: { ...uploadDocument, args: { documentName: "exact.bin" }, files: { document: { path: await fileOf(MAX_FILE_BYTES) } } },
    });
    expect(error).toBeUndefined();
    expect((data!.result as { document: { size: number } }).document.size).toBe(MAX_FILE_BYTES);
  });

  test("one byte more: the client refuses it before sending, and the sandbox refuses it too", async () => {
    const before = store.runs.size;
    const { error } = await runScript({
      client,
      browser: "extension",
      script: { ...uploadDocument, args: { documentName: "over.bin" }, files: { document: { path: await fileOf(MAX_FILE_BYTES + 1) } } },
    });
    expect(error?.kind).toBe("invalid_request");
    expect(store.runs.size).toBe(before);
    expect(await sandboxStatusForPart(MAX_FILE_BYTES + 1)).toBe(413);
  });
});

describe("a JSON run request of the client's MAX_JSON_BODY_BYTES", () => {
  const sendEmail = (subject: string) => ({ handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject } });

  /** The body the client sends for a subject of `pad` letters, found by sending a short one first. */
  async function padFor(target: number): Promise<number> {
    const { error } = await runScript({ client, browser: "extension", script: sendEmail("") });
    expect(error).toBeUndefined();
    return target - sentJsonBodies.at(-1)!;
  }

  test("exactly the limit: the client sends it and the sandbox runs it", async () => {
    const pad = await padFor(MAX_JSON_BODY_BYTES);
    const { error } = await runScript({ client, browser: "extension", script: sendEmail("x".repeat(pad)) });
    expect(sentJsonBodies.at(-1)).toBe(MAX_JSON_BODY_BYTES);
    expect(error).toBeUndefined();
  });

  test("one byte more: the client refuses it before sending, and the sandbox answers 413", async () => {
    const pad = await padFor(MAX_JSON_BODY_BYTES + 1);
    const sent = sentJsonBodies.length;
    const { error } = await runScript({ client, browser: "extension", script: sendEmail("x".repeat(pad)) });
    expect(error?.kind).toBe("invalid_request");
    expect(sentJsonBodies.length).toBe(sent);
    const body = JSON.stringify({ browser: "extension", script: sendEmail("x".repeat(pad)) });
    const padded = body + " ".repeat(MAX_JSON_BODY_BYTES + 1 - Buffer.byteLength(body));
    const response = await fetch(`${server.url}/run`, {
      method: "POST",
      headers: { "x-api-key": store.demo.apiKey, "content-type": "application/json" },
      body: padded,
    });
    await response.arrayBuffer();
    expect(response.status).toBe(413);
  });
});

test.each([
  "2026/invoice.pdf",
  "invoice.pdf",
  "../secrets.txt",
  "/etc/passwd",
  "2026/../../x.pdf",
  "C:/x.pdf",
  "a\\b.pdf",
  "%2e%2e/x.pdf",
  "con.txt",
  "x./y.pdf",
])("the client and the sandbox agree on the relativePath %j", async (relativePath) => {
  const response = await fetch(`${server.url}/run`, {
    method: "POST",
    headers: { "x-api-key": store.demo.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ browser: "extension", script: { ...uploadDocument, args: { documentName: "x" }, files: { document: { relativePath } } } }),
  });
  const answer = (await response.json()) as { error?: string };
  const sandboxRefusesTheName = response.status === 400 && /must be a plain name inside the reduck folder/.test(answer.error ?? "");
  expect(sandboxRefusesTheName).toBe(relativePathProblem(relativePath) !== undefined);
});
