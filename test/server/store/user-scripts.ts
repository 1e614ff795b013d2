// `--scripts DIR` (and startSandbox's `scripts`): the folder `reduck scripts pull` writes
// (DIR/<handle>/<host>/<slug>/, see script-folders.ts), seeded into the catalogue so that code
// under test runs, pulls and pushes these scripts as it would on the service. Whose they become:
//   - a `@user` folder is the sandbox's caller's own: the demo account answers to that handle
//     (`@alice` folders make the demo account @alice; a seeded user of that name steps aside as
//     `<name>-seeded`). One user handle per folder tree, as one account pulled it.
//   - a project handle is that project's: an existing one (acme, reduck...) as the seed has it, a
//     new one made with the demo account as its owner.
// A script the catalogue already has at that address gets the folder's code and contract as a
// new promoted version when they differ; a contract-only folder keeps the code it has there (an
// official script runs as before), and is a new script whose code is withheld otherwise.
import type { ScriptRecord } from "./records.js";
import { readScriptFolders, type ScriptFolder, ScriptsFolderError } from "./script-folders.js";
import { PLACEHOLDER_CONTENT } from "./scripts.js";
import type { SandboxStore } from "./store.js";

export { ScriptsFolderError } from "./script-folders.js";

/** The one `@user` handle of the folders (none: the demo account stays @demo). */
function callerHandle(dir: string, folders: ScriptFolder[]): string | undefined {
  const users = [...new Set(folders.map((f) => f.handle).filter((h) => h.startsWith("@")))];
  if (users.length > 1) {
    throw new ScriptsFolderError(
      `${dir} holds scripts of several users (${users.join(", ")}): the sandbox's account answers to one handle; ` +
        "start it with one user's folder (project folders may sit beside it)",
    );
  }
  return users[0];
}

/** Makes the demo account answer to `handle`; a seeded user of that name is renamed aside. */
function answerTo(store: SandboxStore, handle: string): void {
  const username = handle.slice(1);
  const demo = store.users.get(store.demo.userId)!;
  if (demo.username === username) return;
  const other = store.userByUsername(username);
  if (other) other.username = `${username}-seeded`;
  demo.username = username;
  (store.demo as { handle: string }).handle = handle;
}

function sameContract(store: SandboxStore, script: ScriptRecord, folder: ScriptFolder): boolean {
  const current = store.currentVersion(script);
  if (!current) return false;
  const { contract, code } = folder;
  const json = JSON.stringify;
  return (
    (code === undefined || (code.content === current.content && code.language === current.language)) &&
    json(contract.inputSchema) === json(current.inputSchema) &&
    json(contract.outputSchema) === json(current.outputSchema) &&
    (contract.sideEffects ?? current.sideEffects) === current.sideEffects &&
    (contract.loggedIn ?? current.loggedIn) === current.loggedIn &&
    (contract.name ?? script.name) === script.name &&
    contract.description === script.description &&
    (contract.visibility ?? script.visibility) === script.visibility
  );
}

function versionFields(folder: ScriptFolder) {
  const { contract, code } = folder;
  return {
    inputSchema: contract.inputSchema,
    outputSchema: contract.outputSchema,
    ...(contract.sideEffects === undefined ? {} : { sideEffects: contract.sideEffects }),
    ...(contract.loggedIn === undefined ? {} : { loggedIn: contract.loggedIn }),
    ...(code ? { content: code.content, language: code.language } : {}),
    note: `Seeded from ${folder.folder}`,
  };
}

function seedOne(store: SandboxStore, folder: ScriptFolder): void {
  const owner = store.resolveHandle(folder.handle);
  const existing = owner && store.findScript(owner, folder.host, folder.slug);
  if (existing) {
    if (sameContract(store, existing, folder)) return;
    store.addVersion(existing.id, { ...versionFields(folder), draft: false });
    existing.name = folder.contract.name ?? existing.name;
    existing.description = folder.contract.description;
    existing.visibility = folder.contract.visibility ?? existing.visibility;
    return;
  }
  if (!owner) store.addProject({ handle: folder.handle, members: { [store.demo.userId]: "owner" } });
  store.addScript({
    handle: folder.handle,
    host: folder.host,
    slug: folder.slug,
    name: folder.contract.name ?? folder.slug,
    description: folder.contract.description,
    ...(folder.contract.visibility ? { visibility: folder.contract.visibility } : {}),
    language: "javascript",
    ...versionFields(folder),
    ...(folder.code ? {} : { content: PLACEHOLDER_CONTENT, codeWithheld: true as const }),
  });
}

/**
 * Seeds every script folder of `dir` (the layout `reduck scripts pull` writes) and returns their
 * addresses (`<handle>/<host>/<slug>`). Throws ScriptsFolderError, before seeding any, on a bad folder.
 *
 * @example
 * seedUserScripts(store, "./scripts"); // ["@alice/shop.example/get_total"]: the demo account is now @alice
 */
export function seedUserScripts(store: SandboxStore, dir: string): string[] {
  const folders = readScriptFolders(dir);
  const caller = callerHandle(dir, folders);
  if (caller) answerTo(store, caller);
  for (const folder of folders) seedOne(store, folder);
  return folders.map(({ handle, host, slug }) => `${handle}/${host}/${slug}`);
}
