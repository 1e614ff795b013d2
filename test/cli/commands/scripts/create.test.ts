import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { reduck, tempDir, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();
let dir: string;
let source: string;
let input: string;

const INPUT_SCHEMA = {
  type: "object",
  properties: { url: { type: "string" }, page: { type: "string", format: "file" } },
  required: ["url"],
};

beforeEach(() => {
  dir = tempDir();
  source = path.join(dir, "get_links.ts");
  writeFileSync(source, "await page.goto(args.url);\nreturn { links: [] };\n");
  input = path.join(dir, "input.json");
  writeFileSync(input, JSON.stringify(INPUT_SCHEMA));
});

/** `scripts create` of `slug` on example.com from `file`, with all it needs but a name and schemas. */
const createOnExample = (slug: string, file: string) =>
  reduck("scripts", "create", "--host", "example.com", "--slug", slug, "--description", "x", "--source", file, "--side-effects", "none");
const base = () => ["scripts", "create", "--host", "example.com", "--slug", "get_links", "--description", "Lists the links of a page", "--source", source];

describe("scripts create", () => {
  it("creates the script under your handle with its first version promoted", async () => {
    const { stdout, exitCode } = await reduck(...base(), "--input-schema", input, "--side-effects", "none", "--name", "Get links");
    expect(exitCode).toBe(0);
    const script = server.store.findScriptByAddress("@demo", "example.com", "get_links")!;
    expect(script).toBeDefined();
    expect(script.name).toBe("Get links");
    expect(script.description).toBe("Lists the links of a page");
    expect(script.visibility).toBe("private");
    const version = server.store.currentVersion(script)!;
    expect(version.content).toBe("await page.goto(args.url);\nreturn { links: [] };\n");
    expect(version.language).toBe("typescript");
    expect(version.inputSchema).toEqual(INPUT_SCHEMA);
    expect(version.outputSchema).toEqual({ type: "object" });
    expect(version.sideEffects).toBe("none");
    expect(version.loggedIn).toBe(false);
    expect(stdout).toMatch(/^Created:\s+@demo\/example\.com\/get_links$/m);
    expect(stdout).toContain(`Script id:  ${script.id}`);
    expect(stdout).toContain(`Version id: ${version.id}`);
  });

  it("in a project, as a draft, from JavaScript, as JSON", async () => {
    const js = path.join(dir, "add.js");
    writeFileSync(js, "return { ok: true };\n");
    const { exitCode, json } = await reduck(
      "scripts",
      "create",
      "--handle",
      "acme",
      "--host",
      "crm.acme.test",
      "--slug",
      "add_contact",
      "--description",
      "Adds a contact",
      "--source",
      js,
      "--side-effects",
      "write",
      "--logged-in",
      "--draft",
      "--json",
    );
    expect(exitCode).toBe(0);
    const script = server.store.findScriptByAddress("acme", "crm.acme.test", "add_contact")!;
    expect(script.currentVersionId).toBeNull();
    const [version] = server.store.versionsOf(script.id);
    expect(version!.draft).toBe(true);
    expect(version!.language).toBe("javascript");
    expect(version!.loggedIn).toBe(true);
    expect(version!.sideEffects).toBe("write");
    expect(version!.inputSchema).toEqual({ type: "object", properties: {} });
    expect(json()).toEqual({
      id: script.id,
      host: "crm.acme.test",
      slug: "add_contact",
      current_version_id: null,
      created_version_id: version!.id,
      handle: "acme",
      address: "acme/crm.acme.test/add_contact",
    });
  });

  it("refuses schema files that are missing, not JSON or not an object, naming the file (exit 2, nothing sent)", async () => {
    const notJson = path.join(dir, "broken.json");
    writeFileSync(notJson, "{ type: object");
    const array = path.join(dir, "array.json");
    writeFileSync(array, "[1, 2]");
    const cases: Array<[string, string, RegExp]> = [
      ["--input-schema", path.join(dir, "missing.json"), /--input-schema .*missing\.json: cannot read it \(no such file\)/],
      ["--input-schema", notJson, /--input-schema .*broken\.json: not valid JSON/],
      ["--output-schema", array, /--output-schema .*array\.json: must hold a JSON object .* found an array/],
    ];
    for (const [flag, file, message] of cases) {
      const { exitCode, stderr } = await reduck(...base(), flag, file, "--side-effects", "none");
      expect(exitCode, file).toBe(2);
      expect(stderr).toMatch(message);
    }
    expect(server.store.findScriptByAddress("@demo", "example.com", "get_links")).toBeUndefined();
  });

  it("needs a language it can tell, --side-effects, and a valid slug (exit 2)", async () => {
    const before = server.store.scripts.size;
    const py = path.join(dir, "x.py");
    writeFileSync(py, "print(1)\n");
    const noLanguage = await createOnExample("x", py);
    expect(noLanguage.exitCode).toBe(2);
    expect(noLanguage.stderr).toContain("cannot tell its language");

    const noSideEffects = await reduck(...base());
    expect(noSideEffects.exitCode).toBe(2);
    expect(noSideEffects.stderr).toContain("side-effects");

    const badSlug = await createOnExample("Get Links", source);
    expect(badSlug.exitCode).toBe(2);
    expect(badSlug.stderr).toContain('"Get Links" is not a script slug');
    expect(server.store.scripts.size).toBe(before);
  });

  it("a taken slug fails with the service's message (exit 1)", async () => {
    const { exitCode, stderr } = await createOnExample("get_title", source);
    expect(exitCode).toBe(1);
    expect(stderr).toContain("@demo/example.com/get_title already exists");
  });
});
