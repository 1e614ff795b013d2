/**
 * `run` and `batch` read their argv with one reader, driven by each command's own oclif flag
 * definitions: what a flag takes as its value is never a script argument, whichever flag it is
 * and however it is spelt, and a flag added to a command needs no change to the reader.
 */
import path from "node:path";
import { Flags } from "@oclif/core";
import { describe, expect, it } from "vitest";
import Batch from "../../../src/cli/commands/batch.js";
import Run from "../../../src/cli/commands/run.js";
import { type FlagDefinitions, groupSteps, sharedArguments, splitArgv } from "../../../src/cli/run/run-args.js";
import { flagDefinitionsOf } from "../../../src/cli/shell/base.js";

const ADDRESS = "example.com/get_title";
const runFlags = flagDefinitionsOf(Run);
const batchFlags = flagDefinitionsOf(Batch);

/** The script arguments run finds after its flags, as batch holds them (name to value). */
function runArguments(argv: string[], flags: FlagDefinitions = runFlags): Record<string, string> {
  const [step, ...more] = groupSteps(["--script", ADDRESS, ...argv], flags);
  expect(more).toEqual([]);
  return Object.fromEntries([...step!.values, ...step!.files.map(([input, file]) => [`file:${input}`, path.resolve(file)])]);
}
function batchArguments(argv: string[], flags: FlagDefinitions = batchFlags): Record<string, string> {
  return sharedArguments(["--script", ADDRESS, "--input", "rows.csv", ...argv], flags);
}

/** Every way each flag that takes a value can be written: its name, its aliases and chars, with the value apart or inline. */
function valueSpellings(flags: FlagDefinitions): string[][] {
  return Object.entries(flags)
    .filter(([name, flag]) => flag.type === "option" && name !== "script")
    .flatMap(([name, flag]) => [
      ...[name, ...(flag.aliases ?? [])].flatMap((long) => [[`--${long}`, "v=1"], [`--${long}=v=1`]]),
      ...[flag.char, ...(flag.charAliases ?? [])].filter(Boolean).flatMap((c) => [[`-${c}`, "v=1"], [`-${c}v=1`]]),
    ]);
}

describe.each([
  ["run", runFlags, runArguments],
  ["batch", batchFlags, batchArguments],
] as const)("%s: flags are told from script arguments by the command's own definitions", (_, flags, read) => {
  it("no value of a flag becomes a script argument, whatever the flag and its spelling", () => {
    const spellings = valueSpellings(flags);
    // The commands' own value flags, the global ones and the --version-id alias: an empty list cannot pass.
    expect(spellings.length).toBeGreaterThanOrEqual(16);
    expect(spellings).toContainEqual(["--api-key", "v=1"]);
    expect(spellings).toContainEqual(["--version-id=v=1"]);
    for (const spelling of spellings) expect(read([...spelling, "to=me@example.com"]), spelling.join(" ")).toEqual({ to: "me@example.com" });
  });

  it("a flag that takes no value leaves the next token a script argument", () => {
    expect(read(["--json", "to=me@example.com", "--verbose", "subject=Hi"])).toEqual({ to: "me@example.com", subject: "Hi" });
  });

  it("a flag added to the definitions is recognised, with no change to the reader", () => {
    // Not a flag of the command: `--tag` is passed over, and its value read as an argument.
    expect(read(["--tag", "team=sales", "to=me@example.com"])).toEqual({ team: "sales", to: "me@example.com" });
    const added = { ...flags, tag: Flags.string({ char: "t" }) };
    expect(read(["--tag", "team=sales", "to=me@example.com"], added)).toEqual({ to: "me@example.com" });
    expect(read(["-t", "team=sales", "to=me@example.com"], added)).toEqual({ to: "me@example.com" });
  });

  it("reads name=value and file:INPUT=PATH alike, and refuses the same malformed ones in the same words", () => {
    expect(read(["q=a=b", "file:attachment=./banner.png"])).toEqual({ q: "a=b", "file:attachment": path.resolve("banner.png") });
    expect(() => read(["oops"])).toThrow('"oops" is not an argument: write name=value, or file:input=path for a file');
    expect(() => read(["file:=x"])).toThrow('"file:=x" names no file input: write file:input=path');
    expect(() => read(["file:doc="])).toThrow("file:doc needs a path: write file:doc=path");
  });
});

describe("splitArgv", () => {
  const flags = { out: Flags.string({ char: "o" }), wait: Flags.boolean({ allowNo: true }), yes: Flags.boolean({ char: "y" }) };

  it("gives flags with their values, unknown dashes and arguments, in order", () => {
    expect(splitArgv(["--out", "dir", "a=1", "--no-wait", "-odir2", "-y", "--nope", "b=2", "-o=dir3"], flags)).toEqual([
      { flag: "out", value: "dir" },
      { argument: "a=1" },
      { flag: "wait" },
      { flag: "out", value: "dir2" },
      { flag: "yes" },
      { unknown: "--nope" },
      { argument: "b=2" },
      { flag: "out", value: "dir3" },
    ]);
  });

  it("does not take a flag as another flag's value (oclif reports the missing value)", () => {
    expect(splitArgv(["--out", "--no-wait", "a=1"], flags)).toEqual([{ flag: "out" }, { flag: "wait" }, { argument: "a=1" }]);
    expect(splitArgv(["--out"], flags)).toEqual([{ flag: "out" }]);
  });
});
