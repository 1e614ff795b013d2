/**
 * A file that grows or shrinks while it is sent: exactly the announced bytes go out, or the run
 * fails at once saying so. Without this a short file left the request waiting forever for the
 * rest of its Content-Length (runs have no timeout).
 */
import { appendFileSync, truncateSync } from "node:fs";
import { open } from "node:fs/promises";
import { afterEach, expect, test } from "vitest";
import { createReduckClient, runScript } from "../../src/index.js";
import { startFaultServer, type FaultServer } from "../faults/fault-server.js";
import { makeFile, patterned } from "../support/files.js";

const MiB = 1024 * 1024;
let server: FaultServer;
afterEach(() => server?.close());

async function setup() {
  server = await startFaultServer({ "POST /run": { json: { result: { ok: true }, runId: "00000000-0000-4000-8001-000000000001" } } });
  const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
  const file = await makeFile("big.bin", patterned(3 * MiB));
  return { client, file };
}

/** Runs with `file` as bytes, changing it (synchronously) once `sent` first reaches `after` bytes. */
async function runChanging(after: number, change: (file: string) => void) {
  const { client, file } = await setup();
  let changed = false;
  const result = await runScript({
    client,
    script: { host: "a.com", slug: "s", files: { document: { path: file } } },
    onUploadProgress: ({ sent }) => {
      if (sent >= after && !changed) {
        changed = true;
        change(file);
      }
    },
  });
  return { ...result, file };
}

test("a file that grew before it was sent fails at once, sending none of it", async () => {
  const { error, file } = await runChanging(0, (f) => appendFileSync(f, "more"));
  expect(error).toEqual({
    kind: "invalid_request",
    code: "file_changed",
    url: `${server.url}/run`,
    error: `${file} changed while it was being sent: it was 3145728 bytes, now 3145732`,
  });
});

test("a file that grew while it was sent fails before its last byte goes", async () => {
  const { error, file } = await runChanging(MiB + 1, (f) => appendFileSync(f, "more"));
  expect(error?.error).toBe(`${file} changed while it was being sent: it was 3145728 bytes, now 3145732`);
});

test("a file that shrank while it was sent fails instead of leaving the request waiting", async () => {
  const { error, file } = await runChanging(MiB + 1, (f) => truncateSync(f, 100));
  expect(error?.error).toBe(`${file} changed while it was being sent: it was 3145728 bytes, now 100`);
  expect(error?.kind).toBe("invalid_request");
});

test("an open file handle that shrank is reported under its name", async () => {
  const { client, file } = await setup();
  const handle = await open(file, "r");
  try {
    const { error } = await runScript({
      client,
      script: { host: "a.com", slug: "s", files: { document: { handle, name: "big.bin" } } },
      onUploadProgress: ({ sent }) => {
        if (sent === 0) truncateSync(file, 10);
      },
    });
    expect(error?.error).toBe("big.bin changed while it was being sent: it was 3145728 bytes, now 10");
  } finally {
    await handle.close();
  }
});

test("an unchanged file is sent whole, once", async () => {
  const { client, file } = await setup();
  const { data, error } = await runScript({ client, script: { host: "a.com", slug: "s", files: { document: { path: file } } } });
  expect(error).toBeUndefined();
  expect(data).toEqual({ result: { ok: true }, runId: "00000000-0000-4000-8001-000000000001" });
  expect(server.count("POST /run")).toBe(1);
});
