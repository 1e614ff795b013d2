/** A file read for an upload is always closed, also when reading it fails. */
import { mkdirSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { expect, test } from "vitest";
import { createReduckClient, runScript } from "../../src/index.js";
import { startFaultServer } from "../faults/fault-server.js";
import { makeFile } from "../support/files.js";

/** How many of this process's file descriptors point at `file` (Linux). */
const openOn = (file: string) =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;

test.skipIf(process.platform !== "linux")("a read that fails (the file became a folder) leaves nothing open", async () => {
  const server = await startFaultServer({ "POST /run": { json: { result: {}, runId: "00000000-0000-4000-8001-0000000000a0" } } });
  try {
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url, maxRetries: 0 });
    for (let i = 0; i < 3; i++) {
      const file = await makeFile("doc.txt", "hello");
      const { error } = await runScript({
        client,
        script: { host: "a.com", slug: "s", files: { document: { path: file } } },
        // Checked as a file, then swapped for a folder just before it is read: opening a
        // folder works, reading it fails.
        onUploadProgress: ({ sent }) => {
          if (sent === 0) {
            rmSync(file);
            mkdirSync(file);
          }
        },
      });
      expect(error?.kind).toBe("invalid_request");
      expect(error?.error).toMatch(new RegExp(`^${file} (changed while it was being sent|could not be read while it was being sent)`));
      expect(openOn(file)).toBe(0);
    }
  } finally {
    await server.close();
  }
});
