/**
 * One file-binding path: a file sent by path is checked once (whether the CLI checked it ahead
 * of the run or the run checks it itself) and opened once. Counted by wrapping node:fs's own
 * functions (the named exports the library imports follow them after syncBuiltinESMExports).
 */
import { syncBuiltinESMExports } from "node:module";
import fsp, { type FileHandle } from "node:fs/promises";
import { afterEach, expect, test } from "vitest";
import { createReduckClient, runScript } from "../../src/index.js";
import { checkPathFile } from "../../src/run/files.js";
import { startFaultServer, type FaultServer } from "../faults/fault-server.js";
import { makeFile } from "../support/files.js";

let server: FaultServer | undefined;
afterEach(() => server?.close());

/** Runs `body` while counting stats, access checks and opens of `file` (and stats of its handles). */
async function counting(file: string, body: () => Promise<void>): Promise<{ stats: number; access: number; opens: number }> {
  const counts = { stats: 0, access: 0, opens: 0 };
  const probe = await fsp.open(file, "r");
  const handleProto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const original = { stat: fsp.stat, access: fsp.access, open: fsp.open, handleStat: handleProto.stat };
  const ours = new WeakSet<object>();
  const mutable = fsp as unknown as Record<string, unknown>;
  mutable.stat = (path: unknown, ...rest: unknown[]) => {
    if (path === file) counts.stats++;
    return (original.stat as (...a: unknown[]) => unknown)(path, ...rest);
  };
  mutable.access = (path: unknown, ...rest: unknown[]) => {
    if (path === file) counts.access++;
    return (original.access as (...a: unknown[]) => unknown)(path, ...rest);
  };
  mutable.open = async (path: unknown, ...rest: unknown[]) => {
    const handle = await (original.open as (...a: unknown[]) => Promise<FileHandle>)(path, ...rest);
    if (path === file) {
      counts.opens++;
      ours.add(handle);
    }
    return handle;
  };
  handleProto.stat = function (this: FileHandle, ...rest: unknown[]) {
    if (ours.has(this)) counts.stats++;
    return (original.handleStat as (...a: unknown[]) => ReturnType<FileHandle["stat"]>).apply(this, rest);
  } as FileHandle["stat"];
  syncBuiltinESMExports();
  try {
    await body();
  } finally {
    Object.assign(mutable, { stat: original.stat, access: original.access, open: original.open });
    handleProto.stat = original.handleStat;
    syncBuiltinESMExports();
  }
  return counts;
}

async function setup() {
  server = await startFaultServer({ "POST /run": { json: { result: { ok: true }, runId: "00000000-0000-4000-8001-000000000001" } } });
  const client = createReduckClient({ apiKey: "k", baseUrl: server.url, maxRetries: 0 });
  const file = await makeFile("doc.pdf", Buffer.alloc(300_000, 3));
  return { client, file };
}

test("a file checked ahead of the run (as reduck run does) is not checked again: 3 stats, 1 access check, 1 open", async () => {
  const { client, file } = await setup();
  const counts = await counting(file, async () => {
    const source = await checkPathFile("document", file);
    const { error } = await runScript({ client, script: { host: "a.com", slug: "s", files: { document: source } } });
    expect(error).toBeUndefined();
  });
  // The check's stat; the handle's size as the upload starts and after its last byte (a file changed while sent).
  expect(counts).toEqual({ stats: 3, access: 1, opens: 1 });
});

test("a path given to runScript alone is checked once by the run itself: the same counts", async () => {
  const { client, file } = await setup();
  const counts = await counting(file, async () => {
    const { error } = await runScript({ client, script: { host: "a.com", slug: "s", files: { document: { path: file } } } });
    expect(error).toBeUndefined();
  });
  expect(counts).toEqual({ stats: 3, access: 1, opens: 1 });
});
