/**
 * The agent tool's table: one file per tool in src/mcp/tools/, named for the tool, exporting that
 * tool and nothing else; src/mcp/tool-list.ts lists each of them once, in the order clients see.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { z } from "zod";
import { schemaParts } from "../../src/mcp/common/schema-parts.js";
import type { Tool } from "../../src/mcp/common/tool.js";
import { toolSchemas } from "../../src/mcp/common/tool-schemas.js";
import { TOOLS } from "../../src/mcp/tool-list.js";
import { ALL_TOOLS } from "./support.js";

const FOLDER = path.join(import.meta.dirname, "../../src/mcp/tools");
const files = readdirSync(FOLDER).sort();
const setting = { z, parts: schemaParts(z), s: toolSchemas(z), folder: "/desk/reduck", holdSeconds: 45 };

test("the tools folder holds only tools' files", () => {
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(file).toMatch(/^[a-z]+(-[a-z]+)*\.ts$/);
});

test.each(files)("%s exports one tool, named for the file", async (file) => {
  const exported = Object.entries(await import(path.join(FOLDER, file)));
  expect(exported).toHaveLength(1);
  const [key, tool] = exported[0] as [string, Tool];
  const name = file.slice(0, -".ts".length).replaceAll("-", "_");
  expect(tool.name).toBe(name);
  expect(key).toBe(`${name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}Tool`);
  expect(TOOLS.filter((t) => t === tool)).toHaveLength(1);
  const spec = tool.spec(setting);
  expect(spec.input).toBeInstanceOf(z.ZodObject);
  if (spec.output) expect(spec.output).toBeInstanceOf(z.ZodObject);
  expect(spec.usage.startsWith(`${name} {`)).toBe(true);
});

test("the list holds every tool's file once, in the order clients are given", () => {
  expect(TOOLS.map((t) => t.name)).toEqual([...ALL_TOOLS]);
  expect(new Set(TOOLS).size).toBe(TOOLS.length);
  expect(TOOLS.map((t) => `${t.name.replaceAll("_", "-")}.ts`).sort()).toEqual(files);
});

test("a tool's file imports no other tool, and what tools share imports no tool and no server", () => {
  const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/^import [^;]*? from "([^"]+)";$/gms)].map((m) => m[1]!);
  for (const file of files) {
    const imported = importsOf(path.join(FOLDER, file));
    expect(imported.length, file).toBeGreaterThan(0);
    for (const specifier of imported) expect(specifier, file).not.toMatch(/^\.\/|\/tools\/|\/server\//);
  }
  const SHARED = path.join(FOLDER, "../common");
  for (const file of readdirSync(SHARED)) {
    for (const specifier of importsOf(path.join(SHARED, file))) expect(specifier, file).not.toMatch(/\/tools\/|\/server\/|tool-list/);
  }
});
