/** runScript sends a file of exactly 50 MB over real loopback HTTP, streamed, and it arrives whole (slow: 50 MB). */
import { open, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient, runScript, MAX_FILE_BYTES, type ReduckClient } from "../../src/index.js";
import { createHandlers, createStore, startHttpServer, type ReferenceStore } from "@reduck-client/sandbox";

const uploadDocument = { handle: "reduck", host: "docusign.com", slug: "upload_document" };
let store: ReferenceStore;
let server: Awaited<ReturnType<typeof startHttpServer>>;
let client: ReduckClient;
let dir: string;

/** A sparse file of `size` zero bytes: fast to make, read from disk like any other. */
async function bigFile(name: string, size: number) {
  const file = path.join(dir, name);
  const handle = await open(file, "w");
  await handle.truncate(size);
  await handle.close();
  return file;
}

beforeAll(async () => {
  store = createStore();
  server = await startHttpServer({ handlers: createHandlers(store) });
  client = createReduckClient({ apiKey: store.demo.apiKey, baseUrl: server.url });
  dir = await mkdtemp(path.join(os.tmpdir(), "reduck-run-http-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the 50 MB limit", () => {
  test("exactly 50 MB is sent, streamed, and arrives whole", async () => {
    const file = await bigFile("exact.bin", MAX_FILE_BYTES);
    const { data, error } = await runScript({
      client,
      browser: "extension",
      script: { ...uploadDocument, args: { documentName: "exact.bin" }, files: { document: { path: file } } },
    });
    expect(error).toBeUndefined();
    expect((data!.result as any).document.size).toBe(MAX_FILE_BYTES);
  });
});
