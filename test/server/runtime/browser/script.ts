// Runs a script body in the real browser on this thread: for the tests and the bench of the browser
// alone. POST /run runs bodies in its own runtime (isolated, bounded) and hands them the same
// `page` and `builtins`.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import type { FileDescriptor } from "../../store/records.js";
import type { BrowserHost } from "./host.js";
import type { RunEnd, RunOptions } from "./run.js";
import type { RunFile } from "./files.js";

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...params: string[]) => (...args: unknown[]) => Promise<unknown>;

/** What `files.<input>` shows a script: name, size, type and SHA-256 of each bound file. */
async function describeFiles(files: Readonly<Record<string, RunFile>>): Promise<Record<string, FileDescriptor>> {
  const described: Record<string, FileDescriptor> = {};
  for (const [input, file] of Object.entries(files)) {
    const bytes = "bytes" in file ? file.bytes : "path" in file ? await readFile(file.path) : await file.handle.readFile();
    described[input] = {
      name: file.via === "named" ? file.name : input,
      size: bytes.byteLength,
      type: "application/octet-stream",
      sha256: createHash("sha256").update(bytes).digest("hex"),
    };
  }
  return described;
}

/**
 * Runs `source` (a script body) with `args` and `files` in a new run of `host`; `inspect` looks at
 * the page once the body returned, before the run ends.
 *
 * @example
 * const { result, end } = await runBody(host, source, { args: { to: "a@b.c", subject: "Hi" } });
 */
export async function runBody(
  host: BrowserHost,
  source: string,
  options: RunOptions & { args?: Record<string, unknown>; inspect?: (page: Page) => Promise<void> } = {},
): Promise<{ result: unknown; error?: undefined; end: RunEnd } | { result?: undefined; error: Error; end: RunEnd }> {
  const files = options.files ?? {};
  const run = await host.newRun(options);
  try {
    const body = new AsyncFunction("page", "args", "files", "builtins", source);
    const result = await body(run.page, options.args ?? {}, await describeFiles(files), run.builtins);
    await options.inspect?.(run.page);
    return { result, end: await run.finish() };
  } catch (error) {
    return { error: error as Error, end: await run.finish({ failed: true }) };
  }
}
