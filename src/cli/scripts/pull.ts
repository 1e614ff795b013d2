/**
 * `reduck scripts pull`: each script's current version written as its folder, the lock updated.
 * A folder edited here (its files no longer hash to what the lock records), or holding a draft
 * pushed from here and not promoted, is kept and named, unless --force; a folder already as the
 * service has it is left as it is.
 */
import type { ReduckClient } from "../../core/client.js";
import { isIdOf } from "../../core/id-shapes.js";
import { getScript, listScripts } from "../../generated/operations.js";
import { paginateToArray } from "../../paginate.js";
import { keepBase } from "../../script-folders/bases.js";
import { CONTRACT_FILE, addressText, contractText, folderProblem, type ScriptFolderAddress } from "../../script-folders/layout.js";
import { writeLock } from "../../script-folders/lock.js";
import { writeScriptFolder, type LocalScript } from "../../script-folders/tree.js";
import { usageError } from "../shell/errors.js";
import { basesFolder, IN_FLIGHT, inPool, readTree, treeError } from "./folder-tree.js";
import { ownHandle, resolveAddress } from "./own-handle.js";
import { missingWords, readRemote, type RemoteScript } from "./remote-script.js";
import { handleCallError, scriptCallError } from "./script-lookup.js";
import { addressOfKey } from "./folder-status.js";

export interface PullReport {
  /** Written: new here, or updated where nothing had changed here. */
  written: string[];
  /** Already as the service has it. */
  unchanged: string[];
  /** Pulled as the contract alone: the service withholds the code. */
  withheld: string[];
  /**
   * Changed here, or an unpromoted draft pushed from here (`unpromoted`), and not overwritten (no
   * --force): each with its files that differ from what was not written.
   */
  kept: Array<{ address: string; files: string[]; unpromoted?: true }>;
  /** Not pulled, and why. */
  skipped: Array<{ address: string; why: string }>;
}

/** The addresses the arguments name: addresses as they are, handles as all their scripts, none as your own. */
async function addressesOf(client: ReduckClient, given: readonly string[]): Promise<{ addresses: ScriptFolderAddress[]; named: Set<string> }> {
  const targets = given.length ? given : [await ownHandle(client)];
  const found = new Map<string, ScriptFolderAddress>();
  const named = new Set<string>();
  for (const target of targets) {
    if (target.includes("/")) {
      const a = await resolveAddress(client, target);
      found.set(addressText(a), a);
      named.add(addressText(a));
      continue;
    }
    if (!isIdOf("handle", target))
      throw usageError(`${JSON.stringify(target)} is neither a script address ([handle/]host/slug) nor a handle (@user or a project)`);
    const doing = `listing ${target}'s scripts`;
    const listed = await paginateToArray(listScripts, { client, path: { handle: target }, query: { pageSize: 100, archived: "false" } });
    if (listed.error) throw await handleCallError(client, target, listed.error, doing);
    for (const s of listed.data) {
      if (typeof s?.host !== "string" || typeof s.slug !== "string") continue;
      const a = { handle: target, host: s.host, slug: s.slug };
      found.set(addressText(a), a);
    }
  }
  return { addresses: [...found.values()], named };
}

/** The files of a local script that differ from `hashes`. */
function differing(local: LocalScript, hashes: { codeHash: string | null; contractHash: string }): string[] {
  const files: string[] = [];
  if (local.codeHash !== hashes.codeHash) files.push(`${local.key}/${local.code?.file ?? "(code)"}`);
  if (local.contractHash !== hashes.contractHash) files.push(`${local.key}/${CONTRACT_FILE}`);
  return files;
}

/**
 * Pulls the scripts `given` names into the tree at `dir`.
 *
 * @example
 * const report = await pullScripts(client, { dir: ".", given: ["reduck"], force: false });
 */
export async function pullScripts(client: ReduckClient, { dir, given, force }: { dir: string; given: readonly string[]; force: boolean }): Promise<PullReport> {
  const tree = await readTree(dir, { mustExist: false, ignoreLock: force });
  const { addresses, named } = await addressesOf(client, given);
  const report: PullReport = { written: [], unchanged: [], withheld: [], kept: [], skipped: [] };
  for (const a of addresses) {
    const problem = folderProblem(a);
    if (problem) report.skipped.push({ address: addressText(a), why: `${problem}, so it has no folder` });
  }
  const readable = addresses.filter((a) => !folderProblem(a));
  const remotes = await inPool(readable, IN_FLIGHT, (a) => readRemote(client, a));
  // An address named on the command line that the service does not know is a typo to fix: said
  // with the scripts it most likely meant, before anything is written.
  const unknown = remotes.find((r) => "missing" in r && r.missing === "none" && named.has(r.key));
  if (unknown) {
    const path = addressOfKey(unknown.key);
    const read = await getScript({ client, path });
    if (read.error) throw await scriptCallError(client, path, read.error, `reading ${unknown.key}`, { known: true });
  }
  const lock = tree.lock;
  const bases = basesFolder();
  const writes = remotes.map(async (remote) => {
    if ("missing" in remote) return report.skipped.push({ address: remote.key, why: missingWords(remote) });
    if (!remote.current)
      return report.skipped.push({ address: remote.key, why: "it has no current version, only drafts (promote one, or pull it once it has)" });
    if (!remote.files || !remote.hashes) return report.skipped.push({ address: remote.key, why: remote.problem ?? "its version cannot be written as files" });
    const local = tree.scripts.get(remote.key);
    const locked = lock.scripts[remote.key];
    const same = local && differing(local, remote.hashes).length === 0;
    if (!same && local && !force) {
      const edited = locked ? differing(local, locked) : differing(local, remote.hashes);
      if (!locked || edited.length) return report.kept.push({ address: remote.key, files: edited });
      // The folder is the draft pushed from here, which the service does not run: pulling would
      // put the version it runs in its place, and the draft would be left only on the service.
      if (locked.draft) return report.kept.push({ address: remote.key, files: differing(local, remote.hashes), unpromoted: true });
    }
    if (!same) await writeScriptFolder(dir, remote.files).catch((err: unknown) => Promise.reject(treeError(err, dir)));
    await keepPulled(bases, remote);
    lock.scripts[remote.key] = { versionId: remote.current.id, versionNumber: remote.current.version_number, ...remote.hashes };
    (same ? report.unchanged : report.written).push(remote.key);
    if (!remote.files.code) report.withheld.push(remote.key);
  });
  await Promise.all(writes);
  await writeLock(dir, lock);
  for (const list of [report.written, report.unchanged, report.withheld]) list.sort();
  return report;
}

/**
 * What pull says of the folders it kept (`report.kept`, not empty): the files changed here, the
 * drafts not promoted and how to promote them, and that --force overwrites them.
 */
export function keptWords(kept: PullReport["kept"], dir: string): string {
  const files = kept.filter((k) => !k.unpromoted).flatMap((k) => k.files);
  const drafts = kept.filter((k) => k.unpromoted).map((k) => k.address);
  const what = [
    files.length ? `your changes to ${files.join(", ")}` : "",
    drafts.length ? `the draft${drafts.length === 1 ? "" : "s"} pushed from here and not promoted: ${drafts.join(", ")}` : "",
  ].filter(Boolean);
  const promote = drafts.length ? `; promote: reduck scripts push --promote ${drafts.join(" ")}${dir === "." ? "" : ` --dir ${dir}`}` : "";
  const them = files.length + drafts.length === 1 ? "it" : "them";
  return `kept ${what.join(", and ")}: the service's version was not written over ${them} (see \`reduck scripts diff\`${promote}; pass --force to overwrite)`;
}

/** What was pulled, kept by hash so that status and diff can compare offline. A failure to keep it costs only that. */
async function keepPulled(bases: string, remote: RemoteScript): Promise<void> {
  const texts = [contractText(remote.files!.contract), ...(remote.files!.code ? [remote.files!.code.text] : [])];
  await Promise.all(texts.map((t) => keepBase(bases, t).catch(() => undefined)));
}
