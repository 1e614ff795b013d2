/** runScript sends a file of exactly 50 MB over real loopback HTTP, streamed, and it arrives whole (slow: 50 MB). */
import { describe, expect, test } from "vitest";
import { MAX_FILE_BYTES } from "../../src/index.js";
import { useUploadSandbox } from "./upload-sandbox.js";

const { bigFile, sendDocument } = useUploadSandbox();

describe("the 50 MB limit", () => {
  test("exactly 50 MB is sent, streamed, and arrives whole", async () => {
    const file = await bigFile("exact.bin", MAX_FILE_BYTES);
    const { data, error } = await sendDocument(file);
    expect(error).toBeUndefined();
    expect((data!.result as any).document.size).toBe(MAX_FILE_BYTES);
  });
});
