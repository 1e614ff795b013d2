/**
 * No hand-written file of src/ grows past the size bar: a giant file hides what a module does.
 * The sandbox keeps the same rule over its own files (test/server/import-graph.test.ts). Code
 * written by `npm run generate` (src/generated/) is not hand-written and is left out, by the
 * header that says so; nothing outside src/generated/ may carry that header.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const sizeBar = 350;
const generatedHeader = "// Written by `npm run generate`";

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const files = sources(join(root, "src")).map((file) => ({ file: relative(root, file), text: readFileSync(file, "utf8") }));
const generated = files.filter(({ text }) => text.startsWith(generatedHeader));
const handWritten = files.filter(({ text }) => !text.startsWith(generatedHeader));

describe(`src/ has no hand-written file over ${sizeBar} lines`, () => {
  it("finds the files it checks, and leaves out only the generated ones", () => {
    expect(handWritten.length).toBeGreaterThan(100);
    expect(generated.map(({ file }) => file)).toEqual(expect.arrayContaining(["src/generated/operations.ts", "src/generated/schema.ts"]));
    expect(generated.filter(({ file }) => !file.startsWith("src/generated/")).map(({ file }) => file)).toEqual([]);
  });

  it(`every hand-written file has at most ${sizeBar} lines`, () => {
    const offenders = handWritten
      .map(({ file, text }) => ({ file, lines: text.split("\n").length - 1 }))
      .filter(({ lines }) => lines > sizeBar)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(offenders).toEqual([]);
  });
});

/**
 * A command is its flags, its help and a call: what it does lives in src/cli/<topic>/, where
 * another command or a test can use it.
 */
const commandBar = 120;

describe(`src/cli/commands/ has no command over ${commandBar} lines`, () => {
  const commands = handWritten.filter(({ file }) => file.startsWith("src/cli/commands/"));

  it("finds the commands it checks", () => {
    expect(commands.length).toBeGreaterThan(30);
    expect(commands.map(({ file }) => file)).toEqual(expect.arrayContaining(["src/cli/commands/login.ts", "src/cli/commands/mcp.ts"]));
  });

  it(`every command has at most ${commandBar} lines, help text included`, () => {
    const offenders = commands
      .map(({ file, text }) => ({ file, lines: text.split("\n").length - 1 }))
      .filter(({ lines }) => lines > commandBar)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(offenders).toEqual([]);
  });
});
