/**
 * A command that ends itself with oclif's `this.exit(code)` (an ExitError, whose `name` is plain
 * "Error") ends with that code and prints nothing: it is no failure to report. Any other error
 * still is one.
 */
import { Config } from "@oclif/core";
import { afterEach, expect, test, vi } from "vitest";
import { BaseCommand } from "../../../src/cli/shell/base.js";
import { exitAskedFor } from "../../../src/cli/shell/errors.js";
import { BUILD_ROOT } from "../../support/cli.js";

class Quits extends BaseCommand<typeof Quits> {
  static override description = "ends with exit code 3";
  async run(): Promise<void> {
    this.exit(3);
  }
}

class Fails extends BaseCommand<typeof Fails> {
  static override description = "fails";
  async run(): Promise<void> {
    throw new Error("EEXIT: 3");
  }
}

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** Runs `command` as oclif would, with what it wrote on stdout and stderr. */
async function runQuietly(command: typeof Quits | typeof Fails): Promise<string> {
  let written = "";
  const capture = (chunk: unknown) => ((written += String(chunk)), true);
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
  await command.run(["--api-url", "http://127.0.0.1:9"], await Config.load(BUILD_ROOT));
  return written;
}

test("this.exit(3): exit code 3, nothing printed", async () => {
  expect(await runQuietly(Quits)).toBe("");
  expect(process.exitCode).toBe(3);
});

test("an error whose message merely looks like it is still a failure, reported", async () => {
  expect(await runQuietly(Fails)).toMatch(/^Error: unexpected failure: EEXIT: 3/);
  expect(process.exitCode).toBe(1);
});

test("exitAskedFor reads oclif's ExitError only", () => {
  expect(exitAskedFor(Object.assign(new Error("EEXIT: 0"), { code: "EEXIT", oclif: { exit: 0 } }))).toBe(0);
  expect(exitAskedFor(Object.assign(new Error("x"), { oclif: { exit: 2 } }))).toBeUndefined();
  expect(exitAskedFor(undefined)).toBeUndefined();
});
