import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  LOCK_FILE,
  ScriptFolderError,
  contentHash,
  contractText,
  localChanges,
  lockText,
  parseLock,
  readScriptTree,
  unifiedDiff,
  writeLock,
  writeScriptFolder,
  type ScriptContractFile,
} from "../../src/index.js";
import { keepBase } from "../../src/script-folders/bases.js";
import { temporaryFolder } from "../support/files.js";

const contract: ScriptContractFile = {
  name: "Get title",
  description: "Reads a page's title",
  input_schema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  output_schema: { type: "object" },
  side_effects: "none",
  logged_in: false,
  visibility: "private",
};
const address = { handle: "@demo", host: "example.com", slug: "get_title" };
const VERSION = "00000000-0000-4000-8000-000000000001";

async function pulledTree() {
  const root = temporaryFolder("reduck-tree-");
  const hashes = await writeScriptFolder(root, { address, contract, code: { language: "javascript", text: "return 1;\n" } });
  await writeLock(root, { lockVersion: 1, scripts: { "@demo/example.com/get_title": { versionId: VERSION, versionNumber: 1, ...hashes } } });
  return root;
}

async function problemOf(root: string): Promise<string> {
  const err = await readScriptTree(root).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ScriptFolderError);
  return (err as Error).message;
}

describe("contract.json", () => {
  it("is written with its keys in the agreed order, 2-space indent and a trailing newline, schemas as given", () => {
    const shuffled = { visibility: "private", output_schema: { z: 1, a: 2 }, description: "d", input_schema: { type: "object" } } as ScriptContractFile;
    expect(contractText(shuffled)).toBe(
      '{\n  "description": "d",\n  "input_schema": {\n    "type": "object"\n  },\n  "output_schema": {\n    "z": 1,\n    "a": 2\n  },\n  "visibility": "private"\n}\n',
    );
  });
});

describe("readScriptTree", () => {
  it("reads back what writeScriptFolder wrote, with the hashes of the bytes on disk", async () => {
    const root = await pulledTree();
    const tree = await readScriptTree(root);
    const script = tree.scripts.get("@demo/example.com/get_title")!;
    expect(script.code).toEqual({ language: "javascript", text: "return 1;\n", file: "script.js" });
    expect(script.contract).toEqual(contract);
    expect(script.codeHash).toBe(contentHash("return 1;\n"));
    expect(script.contractHash).toBe(contentHash(await readFile(path.join(root, "@demo/example.com/get_title/contract.json"))));
  });

  it("passes over folders that hold no script (a test folder beside the scripts, node_modules, .git)", async () => {
    const root = await pulledTree();
    await mkdir(path.join(root, "test", "unit", "cases"), { recursive: true });
    await mkdir(path.join(root, "node_modules", "@types", "node"), { recursive: true });
    await writeFile(path.join(root, "node_modules", "@types", "node", "index.d.ts"), "");
    expect([...(await readScriptTree(root)).scripts.keys()]).toEqual(["@demo/example.com/get_title"]);
  });

  it("refuses a folder without a contract, naming the file", async () => {
    const root = await pulledTree();
    await rm(path.join(root, "@demo/example.com/get_title/contract.json"));
    expect(await problemOf(root)).toBe("@demo/example.com/get_title/contract.json: is missing: every script folder holds its contract");
  });

  it("refuses a folder without code unless the lock says the service withholds it", async () => {
    const root = await pulledTree();
    await rm(path.join(root, "@demo/example.com/get_title/script.js"));
    expect(await problemOf(root)).toMatch(/^@demo\/example.com\/get_title: has no code file: add script.ts or script.js/);
    const lock = {
      lockVersion: 1 as const,
      scripts: { "@demo/example.com/get_title": { versionId: VERSION, versionNumber: 1, codeHash: null, contractHash: contentHash(contractText(contract)) } },
    };
    await writeLock(root, lock);
    expect((await readScriptTree(root)).scripts.get("@demo/example.com/get_title")!.code).toBeUndefined();
  });

  it("refuses an emptied folder beside other scripts", async () => {
    const root = await pulledTree();
    await mkdir(path.join(root, "@demo/example.com/new_one"));
    expect(await problemOf(root)).toMatch(/^@demo\/example.com\/new_one\/contract.json: is missing, and so is the code/);
  });

  it("refuses two code files in one folder", async () => {
    const root = await pulledTree();
    await writeFile(path.join(root, "@demo/example.com/get_title/script.ts"), "return 2;");
    expect(await problemOf(root)).toBe("@demo/example.com/get_title: holds both script.js and script.ts: keep one code file, named for its language");
  });

  it.each([
    ["not JSON", "{ nope", /contract.json: not valid JSON/],
    ["an array", "[]", /contract.json: must hold a JSON object/],
    [
      "a schema that is not an object",
      JSON.stringify({ ...contract, input_schema: "string" }),
      /contract.json: input_schema must be a JSON Schema object .*found a string/,
    ],
    [
      "a schema that is an array",
      JSON.stringify({ ...contract, output_schema: [] }),
      /contract.json: output_schema must be a JSON Schema object .*found an array/,
    ],
    ["a required key missing", JSON.stringify({ input_schema: {}, output_schema: {} }), /contract.json: description is missing/],
    ["an unknown key", JSON.stringify({ ...contract, inputSchema: {} }), /contract.json: unknown key "inputSchema"/],
  ])("refuses a contract that is %s, naming the file", async (_, text, message) => {
    const root = await pulledTree();
    await writeFile(path.join(root, "@demo/example.com/get_title/contract.json"), text);
    expect(await problemOf(root)).toMatch(message);
    expect(await problemOf(root)).toMatch(/^@demo\/example.com\/get_title\/contract.json: /);
  });

  it("refuses a folder whose name is no slug", async () => {
    const root = await pulledTree();
    await mkdir(path.join(root, "@demo/example.com/Get Title"));
    await writeFile(path.join(root, "@demo/example.com/Get Title/script.js"), "return 1;");
    expect(await problemOf(root)).toMatch(/the slug "Get Title" is not a slug/);
  });
});

describe("the lock", () => {
  it("refuses a torn lock, naming the file and the way back", async () => {
    const root = await pulledTree();
    const text = await readFile(path.join(root, LOCK_FILE), "utf8");
    await writeFile(path.join(root, LOCK_FILE), text.slice(0, text.length / 2));
    expect(await problemOf(root)).toMatch(/^reduck.lock.json: is not valid JSON .*\(git checkout -- reduck.lock.json\)/);
  });

  it("refuses a lock edited by hand: a changed hash, a key out of order, an unknown field", async () => {
    const text = lockText({
      lockVersion: 1,
      scripts: { "@demo/example.com/get_title": { versionId: VERSION, versionNumber: 1, codeHash: "a".repeat(64), contractHash: "b".repeat(64) } },
    });
    expect(() => parseLock(text)).not.toThrow();
    expect(() => parseLock(text.replace("a".repeat(64), "xyz"))).toThrow(/has a codeHash that is not a SHA-256/);
    expect(() => parseLock(text.replace('"versionNumber": 1', '"versionNumber": 1, "note": "x"'))).toThrow(/must have exactly/);
    expect(() => parseLock(text.replace("\n}\n", "}\n"))).toThrow(/was edited by hand/);
    expect(() => parseLock(text.replace("@demo/example.com/get_title", "@demo/../get_title"))).toThrow(/cannot be a folder name/);
    expect(() => parseLock(text.replace('"lockVersion": 1', '"lockVersion": 2'))).toThrow(/is not a lock this CLI writes/);
  });

  it("keeps a draft not promoted as draft: true, in its sorted place, and a lock without one as it was", async () => {
    const entry = { versionId: VERSION, versionNumber: 3, codeHash: "a".repeat(64), contractHash: "b".repeat(64) };
    const text = lockText({ lockVersion: 1, scripts: { "@demo/example.com/get_title": { ...entry, draft: true } } });
    expect(text).toContain(`"contractHash": "${"b".repeat(64)}",\n      "draft": true,\n      "versionId"`);
    expect(parseLock(text).scripts["@demo/example.com/get_title"]).toEqual({ ...entry, draft: true });
    const root = temporaryFolder("reduck-lock-");
    await writeLock(root, { lockVersion: 1, scripts: { "@demo/example.com/get_title": { ...entry, draft: true } } });
    expect(await readFile(path.join(root, LOCK_FILE), "utf8")).toBe(text);
    expect(lockText({ lockVersion: 1, scripts: { "@demo/example.com/get_title": entry } })).not.toContain("draft");
    expect(() => parseLock(text.replace('"draft": true', '"draft": false'))).toThrow(/has a draft that is not true/);
  });
});

describe("localChanges", () => {
  it("finds by content hash which scripts changed, in what, and which are new or removed", async () => {
    const root = await pulledTree();
    const bases = temporaryFolder("reduck-bases-");
    await keepBase(bases, contractText(contract));
    const second = { ...address, slug: "other" };
    const hashes = await writeScriptFolder(root, { address: second, contract, code: { language: "typescript", text: "return 2;\n" } });
    const tree = await readScriptTree(root);
    await writeLock(root, {
      lockVersion: 1,
      scripts: { ...tree.lock.scripts, "@demo/example.com/other": { versionId: VERSION, versionNumber: 2, ...hashes } },
    });
    expect((await localChanges(await readScriptTree(root), bases)).map((c) => c.state)).toEqual(["unchanged", "unchanged"]);

    await writeFile(
      path.join(root, "@demo/example.com/get_title/contract.json"),
      contractText({ ...contract, description: "New words", output_schema: { type: "object", properties: {} } }),
    );
    await writeFile(path.join(root, "@demo/example.com/other/script.ts"), "return 3;\n");
    await writeScriptFolder(root, { address: { ...address, slug: "brand_new" }, contract, code: { language: "javascript", text: "return 0;\n" } });
    const changes = await localChanges(await readScriptTree(root), bases);
    expect(changes.map(({ address: a, state, code, contractFields }) => ({ a, state, code, contractFields }))).toEqual([
      { a: "@demo/example.com/brand_new", state: "new", code: true, contractFields: undefined },
      { a: "@demo/example.com/get_title", state: "changed", code: false, contractFields: ["description", "output_schema"] },
      { a: "@demo/example.com/other", state: "changed", code: true, contractFields: [] },
    ]);
    // Without what was pulled, a changed contract's fields are unknown, not guessed.
    expect((await localChanges(await readScriptTree(root))).find((c) => c.address === "@demo/example.com/get_title")!.contractFields).toBeUndefined();
    await rm(path.join(root, "@demo/example.com/other"), { recursive: true });
    expect((await localChanges(await readScriptTree(root), bases)).find((c) => c.address === "@demo/example.com/other")!.state).toBe("removed");
  });
});

describe("unifiedDiff", () => {
  it("prints hunks with three lines of context, as diff -u does", () => {
    const before = `${Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
    const after = before.replace("line 2\n", "line 2\ninserted\n").replace("line 11\n", "");
    expect(unifiedDiff(before, after)).toBe(
      "@@ -1,5 +1,6 @@\n line 1\n line 2\n+inserted\n line 3\n line 4\n line 5\n@@ -8,5 +9,4 @@\n line 8\n line 9\n line 10\n-line 11\n line 12\n",
    );
    expect(unifiedDiff("same\n", "same\n")).toBe("");
  });

  it("gives back both texts from its lines, for any pair (seeded)", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = () =>
      Array.from({ length: Math.floor(next() * 15) }, () => "abc"[Math.floor(next() * 3)]!)
        .map((l) => `${l}\n`)
        .join("");
    for (let i = 0; i < 500; i++) {
      const a = text();
      const b = text();
      const lines = unifiedDiff(a, b, 1000)
        .split("\n")
        .filter((l) => l && !l.startsWith("@@"));
      const side = (keep: string) =>
        lines
          .filter((l) => l[0] === " " || l[0] === keep)
          .map((l) => `${l.slice(1)}\n`)
          .join("");
      if (a === b) continue;
      expect([side("-"), side("+")]).toEqual([a, b]);
    }
  });
});
