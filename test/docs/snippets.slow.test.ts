/**
 * Every TypeScript block of README.md, test/server/README.md and docs/*.md (```ts or ```typescript, read now, so a block
 * added later is checked too) compiles as a program of its own under the project's strict
 * settings (all but noUnusedLocals: an example may show a value it leaves to the reader), against the built package's types (dist/index.d.ts): one compiler run for all of
 * them. A block that is deliberately partial says so on its first line with
 * `// not compiled: <why>`; that marker, and only it, leaves a block out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "@reduck-client/sandbox";
import { scriptsModule } from "../../src/typegen/module.js";
import { typecheck, type Problem } from "../support/typecheck.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NOT_COMPILED = /^\s*\/\/ not compiled: \S/;

interface Block {
  /** `docs/library.md:42` (the line of its opening fence). */
  where: string;
  code: string;
}

/** The TypeScript blocks of one Markdown file. */
function tsBlocks(file: string): Block[] {
  const lines = readFileSync(`${ROOT}${file}`, "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== fence; i++) body.push(lines[i]!.slice(open[1]!.length));
    blocks.push({ where: `${file}:${start + 1}`, code: `${body.join("\n")}\n` });
  }
  return blocks;
}

const files = [
  "README.md",
  // The sandbox's own README: its MSW recipe is what a user copies.
  "test/server/README.md",
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const blocks = files.flatMap(tsBlocks);
const compiled = blocks.filter((b) => !NOT_COMPILED.test(b.code));
const fileName = (b: Block) => `${b.where.replace(/[^A-Za-z0-9]+/g, "-")}.ts`;

/**
 * Beside the blocks, as docs/typed-scripts.md tells a reader to make it: `reduck-scripts.ts`, the
 * types of the official catalogue (here made from the sandbox's copies of the contracts, with
 * made-up version ids). It is part of the program, so every block is checked with it, as a
 * program that imports it anywhere would be.
 */
function catalogueModule(): string {
  const scripts = loadCatalogue().map((e, i) => ({
    handle: e.handle,
    host: e.host,
    slug: e.slug,
    name: e.name,
    description: e.description,
    versionId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    versionNumber: 1,
    inputSchema: e.input_schema,
    outputSchema: e.output_schema,
  }));
  return scriptsModule(scripts, "reduck scripts types (the official catalogue)");
}

let problems: Map<string, Problem[]> | undefined;
/** One compiler run for every block, on first use. */
function problemsOf(block: Block): Problem[] {
  problems ??= typecheck({ "reduck-scripts.ts": catalogueModule(), ...Object.fromEntries(compiled.map((b) => [fileName(b), b.code])) }, { allowUnused: true });
  return problems.get(fileName(block)) ?? [];
}

describe("TypeScript in the documentation", () => {
  it("has blocks to check, and every block left out says why", () => {
    expect(compiled.length).toBeGreaterThan(0);
    for (const b of blocks) if (!compiled.includes(b)) expect(b.code.split("\n")[0], b.where).toMatch(NOT_COMPILED);
  });

  it("the catalogue's types, which blocks may import as ./reduck-scripts.js, compile", { timeout: 120_000 }, () => {
    problemsOf(compiled[0]!);
    expect(problems!.get("reduck-scripts.ts")).toEqual([]);
  });

  it.each(compiled.map((b) => [b.where, b] as const))("%s compiles under strict", { timeout: 120_000 }, (_, block) => {
    const found = problemsOf(block).map((p) => `line ${p.line} of the block: ${p.message}`);
    expect(found, `${block.where} does not compile`).toEqual([]);
  });
});
