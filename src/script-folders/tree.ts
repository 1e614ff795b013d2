/**
 * A tree of script folders read and written: `<root>/<handle>/<host>/<slug>/` holding
 * `script.js` or `script.ts` and `contract.json`. Reading is strict and names the file at fault:
 * a folder with code but no contract, a contract but no code (unless the lock says the service
 * withholds it), both code files, a contract that is not JSON or whose schemas are not objects.
 * Folders that hold none of these files are not scripts and are passed over (a `test/` folder
 * beside the scripts), unless the lock names them or a sibling is a script (a script emptied
 * by mistake).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  CODE_FILES,
  CONTRACT_FILE,
  ScriptFolderError,
  addressText,
  contentHash,
  contractText,
  folderProblem,
  languageOfFile,
  parseContract,
  type ScriptContractFile,
  type ScriptFolderAddress,
  type ScriptLanguage,
} from "./layout.js";
import { readLock, type ScriptLock } from "./lock.js";

/** One script as its folder holds it. */
export interface LocalScript {
  address: ScriptFolderAddress;
  /** `handle/host/slug`, also its folder relative to the root. */
  key: string;
  /** The code and its language; absent for a script whose code the service withholds. */
  code?: { language: ScriptLanguage; text: string; file: string };
  contract: ScriptContractFile;
  /** contract.json's text as it is on disk. */
  contractSource: string;
  codeHash: string | null;
  contractHash: string;
}

/** A tree read: its scripts by address, and its lock. */
export interface ScriptTree {
  root: string;
  scripts: Map<string, LocalScript>;
  lock: ScriptLock;
}

/** Folders never read as scripts: the dot-folders (.git) and installed packages. */
const skipped = (name: string) => name.startsWith(".") || name === "node_modules";

async function folders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT" || err.code === "ENOTDIR") return [];
    throw err;
  });
  return entries.filter((e) => e.isDirectory() && !skipped(e.name)).map((e) => e.name);
}

/**
 * Reads every script folder of the tree at `root`, and its lock (or, with `ignoreLock`, none: a
 * pull with --force over a broken lock); throws a ScriptFolderError naming the file at fault
 * (relative to the root).
 *
 * @example
 * const tree = await readScriptTree("./scripts");
 * for (const [address, script] of tree.scripts) console.log(address, script.codeHash);
 */
export async function readScriptTree(root: string, { ignoreLock = false }: { ignoreLock?: boolean } = {}): Promise<ScriptTree> {
  const lock: ScriptLock = ignoreLock ? { lockVersion: 1, scripts: {} } : await readLock(root);
  const candidates: Array<{ address: ScriptFolderAddress; names: string[] }> = [];
  for (const handle of await folders(root)) {
    for (const host of await folders(path.join(root, handle))) {
      const slugs = await folders(path.join(root, handle, host));
      await Promise.all(
        slugs.map(async (slug) => {
          const entries = await readdir(path.join(root, handle, host, slug), { withFileTypes: true });
          candidates.push({ address: { handle, host, slug }, names: entries.filter((e) => e.isFile()).map((e) => e.name) });
        }),
      );
    }
  }
  const isScript = (names: string[]) => names.some((n) => n === CONTRACT_FILE || languageOfFile(n));
  const hostsWithScripts = new Set(candidates.filter((c) => isScript(c.names)).map((c) => `${c.address.handle}/${c.address.host}`));
  const scripts = new Map<string, LocalScript>();
  await Promise.all(
    candidates.map(async ({ address, names }) => {
      const key = addressText(address);
      if (!isScript(names) && !(key in lock.scripts) && !hostsWithScripts.has(`${address.handle}/${address.host}`)) return;
      scripts.set(key, await readScriptFolder(root, address, names, lock));
    }),
  );
  return { root, scripts: new Map([...scripts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), lock };
}

async function readScriptFolder(root: string, address: ScriptFolderAddress, names: string[], lock: ScriptLock): Promise<LocalScript> {
  const key = addressText(address);
  const problem = folderProblem(address);
  if (problem) throw new ScriptFolderError(key, `${problem}: a script's folder is <handle>/<host>/<slug>`);
  const codeNames = names.filter((n) => languageOfFile(n)).sort();
  const withheld = lock.scripts[key]?.codeHash === null;
  if (codeNames.length > 1) throw new ScriptFolderError(key, `holds both ${codeNames.join(" and ")}: keep one code file, named for its language`);
  if (!names.includes(CONTRACT_FILE)) {
    throw new ScriptFolderError(
      `${key}/${CONTRACT_FILE}`,
      codeNames.length
        ? "is missing: every script folder holds its contract"
        : `is missing, and so is the code (${CODE_FILES.javascript} or ${CODE_FILES.typescript})`,
    );
  }
  if (!codeNames.length && !withheld) {
    throw new ScriptFolderError(
      key,
      `has no code file: add ${CODE_FILES.typescript} or ${CODE_FILES.javascript} (only a script whose code the service withholds has its contract alone)`,
    );
  }
  const folder = path.join(root, key);
  const contractSource = await readFile(path.join(folder, CONTRACT_FILE), "utf8");
  const contract = parseContract(contractSource, `${key}/${CONTRACT_FILE}`);
  const codeName = codeNames[0];
  let code: LocalScript["code"];
  if (codeName) {
    const text = await readFile(path.join(folder, codeName), "utf8");
    if (!text.trim()) throw new ScriptFolderError(`${key}/${codeName}`, "is empty: a script needs code");
    code = { language: languageOfFile(codeName)!, text, file: codeName };
  }
  return {
    address,
    key,
    ...(code ? { code } : {}),
    contract,
    contractSource,
    codeHash: code ? contentHash(code.text) : null,
    contractHash: contentHash(contractSource),
  };
}

/** A script's files as pull writes them. */
export interface ScriptFolderFiles {
  address: ScriptFolderAddress;
  /** Absent when the service withholds the code. */
  code?: { language: ScriptLanguage; text: string };
  contract: ScriptContractFile;
}

/**
 * Writes one script's folder (creating it) and returns the hashes of what it wrote. The code file
 * of the other language, or any code file of a script whose code is withheld, is removed.
 *
 * @example
 * const { codeHash, contractHash } = await writeScriptFolder("./scripts", files);
 */
export async function writeScriptFolder(root: string, files: ScriptFolderFiles): Promise<{ codeHash: string | null; contractHash: string }> {
  const problem = folderProblem(files.address);
  if (problem) throw new ScriptFolderError(addressText(files.address), problem);
  const folder = path.join(root, addressText(files.address));
  await mkdir(folder, { recursive: true });
  const contract = contractText(files.contract);
  await writeFile(path.join(folder, CONTRACT_FILE), contract);
  for (const [language, name] of Object.entries(CODE_FILES)) {
    if (files.code?.language !== language) await rm(path.join(folder, name), { force: true });
  }
  if (files.code) await writeFile(path.join(folder, CODE_FILES[files.code.language]), files.code.text);
  return { codeHash: files.code ? contentHash(files.code.text) : null, contractHash: contentHash(contract) };
}
