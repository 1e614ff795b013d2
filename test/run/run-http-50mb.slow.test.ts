/** runScript sends a file of exactly 50 MB over real loopback HTTP, streamed, and it arrives whole (slow: 50 MB). */
import { describe, expect, test } from "vitest";
import { runScript, MAX_FILE_BYTES } from "../../src/index.js";
import { useCliSandbox } from "../support/sandbox.js";
import { sparseFile } from "../support/files.js";

const uploadDocument = { handle: "reduck", host: "docusign.com", slug: "upload_document" };
const sandbox = useCliSandbox({ home: "reduck-run-http-" });
/** A sparse file of `size` zero bytes in the sandbox's folder. */
const bigFile = (name: string, size: number) => sparseFile(sandbox.home, name, size);

describe("the 50 MB limit", () => {
  test("exactly 50 MB is sent, streamed, and arrives whole", async () => {
    const file = await bigFile("exact.bin", MAX_FILE_BYTES);
    const { data, error } = await runScript({
      client: sandbox.client,
      browser: "extension",
      script: { ...uploadDocument, args: { documentName: "exact.bin" }, files: { document: { path: file } } },
    });
    expect(error).toBeUndefined();
    expect((data!.result as any).document.size).toBe(MAX_FILE_BYTES);
  });
});
