/** The command a generated module's header records names no folder of the machine that made it. */
import path from "node:path";
import { describe, expect, test } from "vitest";
import { madeWith } from "../../../src/cli/scripts/types-header.js";

const project = path.resolve("/home/ann/app");
const address = "reduck/mail.google.com/send_email";

describe("madeWith", () => {
  test.each([
    ["no --out", undefined, `reduck scripts types ${address}`],
    ["a relative --out inside the folder", "src/reduck.ts", `reduck scripts types ${address} --out src/reduck.ts`],
    ["an absolute --out inside the folder: relative to it", path.join(project, "src", "reduck.ts"), `reduck scripts types ${address} --out src/reduck.ts`],
    ["an absolute --out elsewhere: the file's name", path.resolve("/tmp/elsewhere/reduck.ts"), `reduck scripts types ${address} --out reduck.ts`],
    ["a relative --out that climbs out: the file's name", "../../ann-secret/reduck.ts", `reduck scripts types ${address} --out reduck.ts`],
  ])("%s", (_, out, expected) => {
    const line = madeWith([address], { out }, project);
    expect(line).toBe(expected);
    expect(line).not.toContain("ann");
  });

  test("--version and --strict are kept", () => {
    expect(madeWith([address], { version: "3", strict: true }, project)).toBe(`reduck scripts types ${address} --version 3 --strict`);
  });
});
