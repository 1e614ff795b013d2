/**
 * The setup run-http.test.ts and its 50 MB twin (run-http-50mb.slow.test.ts) share: the sandbox on
 * loopback HTTP, big files in its folder, and runScript sending one to the sandbox's
 * upload_document script.
 */
import path from "node:path";
import { runScript, type SingleRunOptions } from "../../src/index.js";
import { sparseFile } from "../support/files.js";
import { useCliSandbox } from "../support/sandbox.js";

/** The sandbox's catalogue script that takes one file and says what arrived. */
export const uploadDocument = { handle: "reduck", host: "docusign.com", slug: "upload_document" };

/** Call at the top of a test file; the fields of `sandbox` are set before its first test. */
export function useUploadSandbox() {
  const sandbox = useCliSandbox({ home: "reduck-run-http-" });
  return {
    sandbox,
    /** A sparse file of `size` zero bytes in the sandbox's folder. */
    bigFile: (name: string, size: number) => sparseFile(sandbox.home, name, size),
    /** Runs upload_document through the extension with `file` as its document (named as the file). */
    sendDocument: (file: string, options: Pick<SingleRunOptions, "signal" | "onUploadProgress"> = {}) =>
      runScript({
        client: sandbox.client,
        browser: "extension",
        script: { ...uploadDocument, args: { documentName: path.basename(file) }, files: { document: { path: file } } },
        ...options,
      }),
  };
}
