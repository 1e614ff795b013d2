import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { recordedVersions } from "../../../../src/typegen/module.js";
import { everyRunnableScript, reduck, tempDir, useSandboxForCli } from "../harness.js";

useSandboxForCli();

const BIOME = fileURLToPath(new URL("../../../../node_modules/.bin/biome", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** What biome makes of `text` as a .ts file of this project (its own rules, from biome.json). */
function biomeFormatted(text: string): string {
  const out = spawnSync(BIOME, ["format", "--stdin-file-path=reduck-scripts.ts"], { cwd: ROOT, input: text, encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout;
}

describe("scripts types", () => {
  it("writes one module for every script the sandbox can run: registered by address, formatted as biome formats, the same twice", async () => {
    const CATALOGUE = await everyRunnableScript();
    expect(CATALOGUE).toEqual(
      expect.arrayContaining(["reduck/mail.google.com/send_email", "@demo/example.com/get_title", "acme/crm.acme.test/export_contacts"]),
    );
    const dir = tempDir();
    const out = path.join(dir, "reduck-scripts.ts");
    const first = await reduck("scripts", "types", ...CATALOGUE, "--out", out);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain(`Wrote types for ${CATALOGUE.length} scripts to ${out}`);
    const text = readFileSync(out, "utf8");
    for (const address of CATALOGUE) expect(text).toContain(`    "${address}": {`);
    expect(text).toContain('declare module "reduck-client" {\n  interface ReduckScripts {');
    expect(text).toMatch(/^export interface SendEmailArgs \{$/m);
    expect(text).toMatch(/^ {2}attachment\?: FileSource;$/m);
    expect(text).toMatch(/^ {2}sent: boolean;$/m);
    expect(recordedVersions(text).map((r) => r.address)).toEqual([...CATALOGUE].sort());
    expect(biomeFormatted(text)).toBe(text);

    // Given in another order: the same bytes.
    const again = await reduck("scripts", "types", ...[...CATALOGUE].reverse(), "--out", out);
    expect(again.exitCode).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(text);
  });

  it("an absolute --out outside the current folder: the header names the file, not the folder it is in", async () => {
    const dir = tempDir();
    const out = path.join(dir, "reduck-scripts.ts");
    const made = await reduck("scripts", "types", "reduck/mail.google.com/send_email", "--out", out);
    expect(made.exitCode, made.stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toContain("// Made with: reduck scripts types reduck/mail.google.com/send_email --out reduck-scripts.ts\n");
    expect(text).not.toContain(dir);
  });

  it("--json: the file and each script's version", async () => {
    const out = path.join(tempDir(), "types.ts");
    const { json, exitCode } = await reduck("scripts", "types", "reduck/mail.google.com/send_email", "--out", out, "--json");
    expect(exitCode).toBe(0);
    expect(json()).toMatchObject({ file: out, scripts: [{ address: "reduck/mail.google.com/send_email", versionNumber: 1 }], unknownFields: 0 });
  });

  it("--check: 0 while every script is at its version; 1 after a new version is promoted, naming it and its input changes", async () => {
    const dir = tempDir();
    const out = path.join(dir, "reduck-scripts.ts");
    const made = await reduck("scripts", "types", "example.com/get_title", "reduck/slack.com/upload_file", "--out", out);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("@demo/example.com/get_title version 2 (id ");

    const fresh = await reduck("scripts", "types", "--check", "--out", out);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain("@demo/example.com/get_title: still at version 2");
    expect(fresh.stdout).toContain("reduck/slack.com/upload_file: still at version 1");

    const schema = path.join(dir, "input.json");
    writeFileSync(
      schema,
      JSON.stringify({ type: "object", properties: { url: { type: "array", items: { type: "string" } }, lang: { type: "string" } }, required: ["url"] }),
    );
    const draft = await reduck("scripts", "versions", "create", "example.com/get_title", "--note", "Take a language", "--input-schema", schema, "--json");
    expect(draft.exitCode, draft.stderr).toBe(0);
    const number = String(draft.json().version_number);
    expect((await reduck("scripts", "versions", "promote", "example.com/get_title", number)).exitCode).toBe(0);

    const moved = await reduck("scripts", "types", "--check", "--out", out);
    expect(moved.exitCode).toBe(1);
    expect(moved.stdout).toMatch(new RegExp(`^@demo/example\\.com/get_title: moved from version 2 \\(id [0-9a-f-]+\\) to version ${number} \\(id `, "m"));
    expect(moved.stdout).toContain("reduck/slack.com/upload_file: still at version 1");
    expect(moved.stdout).toContain("  input lang: added (optional, string)");
    expect(moved.stdout).toMatch(/^ {2}input url: (now required|type changed from .* to string\[\])$/m);
    expect(moved.stdout).toContain(`Regenerate with: reduck scripts types @demo/example.com/get_title reduck/slack.com/upload_file --out ${out}`);

    const asJson = await reduck("scripts", "types", "--check", "--out", out, "--json");
    expect(asJson.exitCode).toBe(1);
    expect(asJson.json()).toMatchObject({ upToDate: false, scripts: [{ address: "@demo/example.com/get_title", status: "moved" }, { status: "current" }] });
  });

  it("--strict: the module makes the registry strict, says so in its command, and --check's regenerate line keeps it", async () => {
    const out = path.join(tempDir(), "reduck-scripts.ts");
    const made = await reduck("scripts", "types", "reduck/slack.com/upload_file", "--out", out, "--strict");
    expect(made.exitCode, made.stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toContain(`// Made with: reduck scripts types reduck/slack.com/upload_file --out ${path.basename(out)} --strict\n`);
    expect(text).toContain("  interface ReduckScriptsConfig {\n    strict: true;\n  }\n}\n");
    expect(biomeFormatted(text)).toBe(text);

    // As if the script had moved on since: the recorded version is not its current one.
    writeFileSync(out, text.replace(/version 1 \(id [0-9a-f-]+\)/, "version 1 (id 00000000-0000-4000-8004-0000000000ff)"));
    const moved = await reduck("scripts", "types", "--check", "--out", out);
    expect(moved.exitCode).toBe(1);
    expect(moved.stdout).toContain(`Regenerate with: reduck scripts types reduck/slack.com/upload_file --out ${out} --strict`);

    const refused = await reduck("scripts", "types", "--check", "--out", out, "--strict");
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain("--check reads the file as it is: drop --strict");
  });

  it("an unknown address: exit 2, with the closest script's address", async () => {
    const out = path.join(tempDir(), "types.ts");
    const { exitCode, stderr } = await reduck("scripts", "types", "reduck/mail.google.com/send_emial", "--out", out);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(/^Error: reading reduck\/mail\.google\.com\/send_emial: .*Did you mean reduck\/mail\.google\.com\/send_email\?$/m);
    expect(existsSync(out)).toBe(false);
  });

  it("--out into a folder that does not exist: exit 2, one line, before anything is read", async () => {
    const out = path.join(tempDir(), "missing", "types.ts");
    const { exitCode, stderr } = await reduck("scripts", "types", "reduck/mail.google.com/send_email", "--out", out);
    expect(exitCode).toBe(2);
    expect(stderr.trim()).toBe(`Error: cannot write ${out}: the folder ${path.dirname(out)} does not exist (create it first)`);
  });

  it("--check on a file that is not there, or with addresses: exit 2", async () => {
    const out = path.join(tempDir(), "none.ts");
    const missing = await reduck("scripts", "types", "--check", "--out", out);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`${out} cannot be read`);
    const both = await reduck("scripts", "types", "reduck/mail.google.com/send_email", "--check");
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("--check reads its scripts from reduck-scripts.ts: give no addresses");
  });

  it("a contract form the converter cannot express: that field is unknown, with a comment saying why, and the command says so", async () => {
    const dir = tempDir();
    const schema = path.join(dir, "input.json");
    writeFileSync(
      schema,
      JSON.stringify({
        type: "object",
        properties: { url: { type: "string" }, when: { not: { type: "null" } }, tags: { type: "object", patternProperties: { "^t": { type: "string" } } } },
        required: ["url"],
      }),
    );
    const draft = await reduck("scripts", "versions", "create", "example.com/get_title", "--note", "Odd schema", "--input-schema", schema, "--json");
    expect(draft.exitCode, draft.stderr).toBe(0);
    const out = path.join(dir, "types.ts");
    const made = await reduck("scripts", "types", "example.com/get_title", "--version", String(draft.json().version_number), "--out", out);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stderr).toContain(`2 fields are typed unknown: a schema form the converter does not express (see the "// unknown:" comments in ${out})`);
    const text = readFileSync(out, "utf8");
    expect(text).toContain("  // unknown: not is not converted\n  when?: unknown;\n");
    expect(text).toContain("  // unknown: patternProperties is not converted\n  tags?: unknown;\n");
    expect(text).toContain("  url: string;\n");
    expect(biomeFormatted(text)).toBe(text);
  });
});
