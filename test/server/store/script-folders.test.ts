// `--scripts DIR` reads the folder `reduck scripts pull` writes: whose each script becomes, what a
// folder already in the catalogue gets, a contract-only folder, and each bad folder refused,
// naming its file, before anything is seeded.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore } from "./store.js";
import { seedUserScripts } from "./user-scripts.js";
import { versionView } from "../api/views.js";

const CONTRACT = { description: "Adds two numbers", input_schema: { type: "object" }, output_schema: { type: "object" } };

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "reduck-script-folders-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes one script folder: `files` by name (an object is written as JSON, as pull writes it). */
function folder(address: string, files: Record<string, string | object>): string {
  const dir = path.join(root, ...address.split("/"));
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return dir;
}

describe("seedUserScripts: the pulled layout", () => {
  it("makes a @user folder's scripts the demo account's, which then answers to that handle", () => {
    const store = createStore({ browser: "simulated" });
    folder("@alice/shop.example/get_total", { "script.js": "return { total: args.a + args.b };", "contract.json": { ...CONTRACT, side_effects: "write" } });
    writeFileSync(path.join(root, "reduck.lock.json"), "{ torn");
    expect(seedUserScripts(store, root)).toEqual(["@alice/shop.example/get_total"]);
    const script = store.findScriptByAddress("@alice", "shop.example", "get_total")!;
    expect(script.owner).toEqual({ kind: "user", id: store.demo.userId });
    expect(store.demo.handle).toBe("@alice");
    expect(store.handleOf(script.owner)).toBe("@alice");
    expect(store.currentVersion(script)).toMatchObject({ content: "return { total: args.a + args.b };", language: "javascript", sideEffects: "write" });
    // The seeded user who had that name steps aside; the demo account's own scripts come along.
    expect(store.userByUsername("alice-seeded")).toBeDefined();
    expect(store.findScriptByAddress("@alice", "example.com", "get_title")).toBeDefined();
    expect(store.canWriteScript(store.demo.userId, script)).toBe(true);
  });

  it("puts a project folder's scripts in that project, making it (owned by the demo account) when new", () => {
    const store = createStore({ browser: "simulated" });
    folder("acme/crm.acme.test/count_leads", { "script.ts": "const n: number = 3;\nreturn { n };", "contract.json": CONTRACT });
    folder("shopkeepers/shop.example/restock", { "script.js": "return {};", "contract.json": { ...CONTRACT, visibility: "public" } });
    expect(seedUserScripts(store, root)).toEqual(["acme/crm.acme.test/count_leads", "shopkeepers/shop.example/restock"]);
    expect(store.demo.handle).toBe("@demo");
    const counted = store.findScriptByAddress("acme", "crm.acme.test", "count_leads")!;
    expect(store.currentVersion(counted)).toMatchObject({ language: "typescript", content: "const n: number = 3;\nreturn { n };" });
    const project = store.projectByHandle("shopkeepers")!;
    expect(project.members.get(store.demo.userId)).toBe("owner");
    expect(store.findScriptByAddress("shopkeepers", "shop.example", "restock")!.visibility).toBe("public");
  });

  it("seeds a contract-only folder as a script whose code is withheld", () => {
    const store = createStore({ browser: "simulated" });
    folder("@demo/shop.example/secret", { "contract.json": CONTRACT });
    seedUserScripts(store, root);
    const script = store.findScriptByAddress("@demo", "shop.example", "secret")!;
    const version = store.currentVersion(script)!;
    expect(version.codeWithheld).toBe(true);
    expect(versionView(store, store.demo.userId, version).content).toBeUndefined();
    expect(versionView(store, store.demo.userId, version).input_schema).toEqual({ type: "object" });
  });

  it("gives a script already in the catalogue the folder's version when it differs, and leaves it alone when not", () => {
    const store = createStore({ browser: "simulated" });
    const official = store.findScriptByAddress("reduck", "mail.google.com", "send_email")!;
    const officialVersion = store.currentVersion(official)!;
    const own = store.findScriptByAddress("@demo", "example.com", "get_title")!;
    const ownVersion = store.currentVersion(own)!;
    // As pulled: the official script's contract alone, unchanged; demo's own with new code.
    folder("reduck/mail.google.com/send_email", {
      "contract.json": {
        name: official.name,
        description: official.description,
        input_schema: officialVersion.inputSchema,
        output_schema: officialVersion.outputSchema,
        side_effects: officialVersion.sideEffects,
        logged_in: officialVersion.loggedIn,
        visibility: official.visibility,
      },
    });
    folder("@demo/example.com/get_title", {
      "script.js": "return { title: 'edited' };",
      "contract.json": { description: own.description, input_schema: ownVersion.inputSchema, output_schema: ownVersion.outputSchema },
    });
    seedUserScripts(store, root);
    expect(store.currentVersion(official)!.id).toBe(officialVersion.id);
    const edited = store.currentVersion(own)!;
    expect(edited.id).not.toBe(ownVersion.id);
    expect(edited).toMatchObject({ content: "return { title: 'edited' };", parentVersionId: ownVersion.id, draft: false });
  });

  it("skips dot-folders, node_modules and files beside the folders", () => {
    const store = createStore({ browser: "simulated" });
    folder(".git/objects/ab", { "cd.json": "x" });
    folder("node_modules/@types/node", { "index.d.ts": "x" });
    writeFileSync(path.join(root, "README.md"), "my scripts");
    expect(seedUserScripts(store, root)).toEqual([]);
  });
});

describe("seedUserScripts: a bad folder is refused, naming its file, before anything is seeded", () => {
  const cases: Array<[string, (dir: string) => void, (dir: string) => string]> = [
    ["no code or contract file", () => folder("@demo/shop.example/empty", { "notes.txt": "x" }), (d) => `${d} holds no script: write script.js or script.ts`],
    [
      "code without a contract",
      () => folder("@demo/shop.example/empty", { "script.ts": "return {};" }),
      (d) => `${path.join(d, "script.ts")} has no contract: write ${path.join(d, "contract.json")}`,
    ],
    [
      "a contract that is not JSON",
      () => folder("@demo/shop.example/empty", { "contract.json": "{ description: " }),
      (d) => `${path.join(d, "contract.json")} is not JSON: `,
    ],
    [
      "a contract that is an array",
      () => folder("@demo/shop.example/empty", { "contract.json": [] }),
      (d) => `${path.join(d, "contract.json")} must be a JSON object`,
    ],
    [
      "a schema that is not an object",
      () => folder("@demo/shop.example/empty", { "contract.json": { ...CONTRACT, output_schema: "object" } }),
      (d) => `${path.join(d, "contract.json")}: "output_schema" must be a JSON Schema object, e.g. {"type": "object"}`,
    ],
    [
      "a missing input schema",
      () => folder("@demo/shop.example/empty", { "contract.json": { description: "x", output_schema: {} } }),
      (d) => `${path.join(d, "contract.json")}: "input_schema" must be a JSON Schema object`,
    ],
    [
      "two code files",
      () => folder("@demo/shop.example/empty", { "script.js": "return {};", "script.ts": "return {};", "contract.json": CONTRACT }),
      (d) => `${d} has two code files (script.js and script.ts): keep one, named for its language`,
    ],
    [
      "bad side_effects",
      () => folder("@demo/shop.example/empty", { "script.js": "return {};", "contract.json": { ...CONTRACT, side_effects: "some" } }),
      (d) => `${path.join(d, "contract.json")}: "side_effects" must be one of none, undetermined, write (got "some")`,
    ],
    [
      "a folder that is no host",
      () => folder("@demo/shop example/empty", { "script.js": "return {};", "contract.json": CONTRACT }),
      () => `"shop example" is not a host name such as example.com`,
    ],
    [
      "two users' folders",
      () => {
        folder("@alice/shop.example/a", { "script.js": "return {};", "contract.json": CONTRACT });
        folder("@bob/shop.example/b", { "script.js": "return {};", "contract.json": CONTRACT });
      },
      () => `${root} holds scripts of several users (@alice, @bob, @demo): the sandbox's account answers to one handle`,
    ],
  ];
  it.each(cases)("%s", (_, write, message) => {
    const store = createStore({ browser: "simulated" });
    // A good folder first in the walk: nothing of it may be seeded either.
    folder("@demo/aaa.example/fine", { "script.js": "return {};", "contract.json": CONTRACT });
    write(path.join(root, "@demo", "shop.example", "empty"));
    const before = store.scripts.size;
    expect(() => seedUserScripts(store, root)).toThrow(message(path.join(root, "@demo", "shop.example", "empty")));
    expect(store.scripts.size).toBe(before);
    expect(store.demo.handle).toBe("@demo");
  });

  it("a symlinked script folder is read like any other (it is the author's own tree)", () => {
    const store = createStore({ browser: "simulated" });
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "reduck-script-elsewhere-"));
    try {
      writeFileSync(path.join(elsewhere, "script.js"), "return { linked: true };");
      writeFileSync(path.join(elsewhere, "contract.json"), JSON.stringify(CONTRACT));
      mkdirSync(path.join(root, "@demo", "shop.example"), { recursive: true });
      symlinkSync(elsewhere, path.join(root, "@demo", "shop.example", "linked"));
      expect(seedUserScripts(store, root)).toEqual(["@demo/shop.example/linked"]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
