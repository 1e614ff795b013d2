/** The module `reduck scripts types` writes, from contracts given directly. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { declaresStrict, recordedVersions, scriptsModule, type ScriptContract } from "../../src/typegen/module.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIOME = fileURLToPath(new URL("../../node_modules/.bin/biome", import.meta.url));

const base = {
  versionNumber: 3,
  versionId: "00000000-0000-4000-8004-000000000003",
  outputSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
};
const scripts: ScriptContract[] = [
  {
    ...base,
    handle: "@demo",
    host: "example.com",
    slug: "thing",
    inputSchema: {
      type: "object",
      properties: { owner: { $ref: "#/$defs/person" }, doc: { type: "string", format: "file", description: "The document." } },
      required: ["doc"],
      $defs: { person: { type: "object", description: "Someone.", properties: { name: { type: "string" } }, required: ["name"] } },
    },
  },
  // The same slug on two hosts: the host goes in front of both names.
  {
    ...base,
    handle: "acme",
    host: "a.test",
    slug: "upload",
    inputSchema: { type: "object", properties: { "test-upload.pdf": { type: "string", format: "file" } } },
  },
  { ...base, handle: "acme", host: "b.test", slug: "upload", inputSchema: { type: "object" } },
];

describe("scriptsModule", () => {
  const text = scriptsModule(scripts, "reduck scripts types ...");

  test("$defs become named types the properties refer to; file inputs are FileSource, apart from the args", () => {
    expect(text).toContain("export interface ThingArgs {\n  owner?: ThingArgsPerson;\n}\n");
    expect(text).toContain("/** Someone. */\nexport interface ThingArgsPerson {\n  name: string;\n}\n");
    expect(text).toContain("export interface ThingFiles {\n  /** The document. */\n  doc: FileSource;\n}\n");
    expect(text).toContain('export interface ATestUploadFiles {\n  "test-upload.pdf"?: FileSource;\n}\n');
    expect(text).toContain("export type ATestUploadArgs = Record<string, never>;\n");
    expect(text).toContain("export type BTestUploadArgs = Record<string, unknown>;\n");
    expect(text).toContain("export type BTestUploadFiles = Record<string, never>;\n");
    expect(text).toContain('    "@demo/example.com/thing": { args: ThingArgs; files: ThingFiles; result: ThingResult };\n');
  });

  test("the header records each script's version, sorted by address, and reads back", () => {
    expect(recordedVersions(text)).toEqual(
      ["@demo/example.com/thing", "acme/a.test/upload", "acme/b.test/upload"].map((address) => ({ address, versionNumber: 3, versionId: base.versionId })),
    );
    expect(scriptsModule([...scripts].reverse(), "reduck scripts types ...")).toBe(text);
  });

  test("biome leaves it as it is", () => {
    const out = spawnSync(BIOME, ["format", "--stdin-file-path=reduck-scripts.ts"], { cwd: ROOT, input: text, encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe(text);
  });

  test("strict: the module also makes the registry strict, once, beside its registrations; biome leaves it as it is", () => {
    const strict = scriptsModule(scripts, "reduck scripts types ... --strict", { strict: true });
    expect(strict).toContain(
      '    "acme/b.test/upload": { args: BTestUploadArgs; files: BTestUploadFiles; result: BTestUploadResult };\n  }\n' +
        "  // Strict: an address not registered above is a type error.\n  interface ReduckScriptsConfig {\n    strict: true;\n  }\n}\n",
    );
    expect(strict.match(/interface ReduckScriptsConfig/g)).toHaveLength(1);
    expect(declaresStrict(strict)).toBe(true);
    expect(declaresStrict(text)).toBe(false);
    expect(text).not.toContain("ReduckScriptsConfig");
    const out = spawnSync(BIOME, ["format", "--stdin-file-path=reduck-scripts.ts"], { cwd: ROOT, input: strict, encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toBe(strict);
  });
});
