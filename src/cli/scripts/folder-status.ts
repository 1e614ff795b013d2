/**
 * `reduck scripts status` and `diff`: what changed here since the pull (offline, by content
 * hash), and with the service asked (--remote) what changed there: a script whose current
 * version moved since the pull, and the conflicts (changed on both sides). A draft pushed from
 * here and not promoted is said too: offline as the lock records it, with --remote as the
 * service answers (it may have been promoted on the web since).
 */
import type { ReduckClient } from "../../core/client.js";
import { isIdOf } from "../../core/id-shapes.js";
import { getScriptVersion } from "../../generated/operations.js";
import { localChanges, type LocalChange } from "../../script-folders/changes.js";
import { addressText, type ScriptFolderAddress } from "../../script-folders/layout.js";
import type { ScriptTree } from "../../script-folders/tree.js";
import { fromReduckError } from "../shell/errors.js";
import { basesFolder, IN_FLIGHT, inPool } from "./folder-tree.js";
import { readRemote, recoverPulled } from "./remote-script.js";

/** What the service holds of a script, against the version the lock records. */
export type RemoteState = "same" | "moved" | "none" | "archived" | "no-current";

export interface StatusRow {
  address: string;
  state: LocalChange["state"];
  code: boolean;
  /** Contract fields changed here; null when they are not known on this machine (the contract changed). */
  contractFields: string[] | null;
  pulled?: { versionId: string; versionNumber: number };
  /** With --remote. */
  remote?: RemoteState;
  current?: { versionId: string; versionNumber: number };
  conflict: boolean;
  /**
   * The version the lock records (`pulled`) is a draft pushed from here that the script does not
   * run yet: offline as the lock records it, with --remote as the service answers.
   */
  unpromoted: boolean;
}

export const addressOfKey = (key: string): ScriptFolderAddress => {
  const [handle = "", host = "", slug = ""] = key.split("/");
  return { handle, host, slug };
};

/**
 * The version a locked version stands on: itself when promoted, else (a draft pushed from here)
 * the nearest promoted version it was drafted from. Unreadable: itself.
 */
export async function standsOn(client: ReduckClient, address: ScriptFolderAddress, versionId: string): Promise<string> {
  let id = versionId;
  for (let step = 0; step < 50; step++) {
    const read = await getScriptVersion({ client, path: { ...address, versionId: id } });
    if (read.error) {
      if (read.error.status === 404) return id;
      throw fromReduckError(read.error, `reading ${addressText(address)}'s version ${id}`);
    }
    const parent = read.data.parent_version_id;
    // An id of another shape than the service documents never becomes a path.
    if (!read.data.draft || !parent || !isIdOf("version id", parent)) return id;
    id = parent;
  }
  return id;
}

/** Whether a version of the script is a draft (a version the service no longer has is not). */
async function isDraft(client: ReduckClient, address: ScriptFolderAddress, versionId: string): Promise<boolean> {
  const read = await getScriptVersion({ client, path: { ...address, versionId } });
  if (read.error) {
    if (read.error.status === 404) return false;
    throw fromReduckError(read.error, `reading ${addressText(address)}'s version ${versionId}`);
  }
  return read.data.draft === true;
}

/**
 * Each script's status, sorted by address; with a client, the service's side too.
 *
 * @example
 * const rows = await folderStatus(tree, remote ? client : undefined);
 */
export async function folderStatus(tree: ScriptTree, client?: ReduckClient): Promise<StatusRow[]> {
  let changes = await localChanges(tree, basesFolder());
  const unknown = client ? changes.filter((c) => c.locked && c.contract && c.contractFields === undefined) : [];
  if (client && unknown.length) {
    // Pulled on another machine: read the pulled versions from the service, to name the fields.
    await inPool(unknown, IN_FLIGHT, (c) => recoverPulled(client, c.address, c.locked!, basesFolder()));
    changes = await localChanges(tree, basesFolder());
  }
  const rows = changes.map(
    (c): StatusRow => ({
      address: c.address,
      state: c.state,
      code: c.state === "changed" && c.code,
      contractFields: c.state !== "changed" ? [] : (c.contractFields ?? null),
      ...(c.locked ? { pulled: { versionId: c.locked.versionId, versionNumber: c.locked.versionNumber } } : {}),
      conflict: false,
      unpromoted: c.state !== "removed" && c.locked?.draft === true,
    }),
  );
  if (!client) return rows;
  await inPool(rows, IN_FLIGHT, async (row) => {
    const address = addressOfKey(row.address);
    const remote = await readRemote(client, address);
    const pulled = row.pulled?.versionId;
    // The service's answer replaces the lock's: a draft may have been promoted on the web since.
    row.unpromoted = false;
    if ("missing" in remote) row.remote = remote.missing;
    else if (!remote.current) {
      row.remote = "no-current";
      // A script pushed as new and not promoted yet runs nothing: its one version is the draft.
      row.unpromoted = row.state !== "removed" && pulled !== undefined && (await isDraft(client, address, pulled));
    } else {
      row.current = { versionId: remote.current.id, versionNumber: remote.current.version_number };
      if (!pulled) row.remote = "moved";
      else if (remote.current.id === pulled) row.remote = "same";
      else {
        row.remote = (await standsOn(client, address, pulled)) === remote.current.id ? "same" : "moved";
        // Not the current version, yet drafted from it: a draft waiting to be promoted.
        row.unpromoted = row.state !== "removed" && row.remote === "same";
      }
    }
    const changedHere = row.state === "changed" || row.state === "new";
    // A script that runs nothing yet but the draft pushed from here has nothing to conflict with (push goes ahead).
    const waiting = row.remote === "no-current" && row.unpromoted;
    row.conflict = changedHere && row.remote !== "same" && !waiting && !(row.state === "new" && row.remote === "none");
  });
  return rows;
}

/** Where a script's unpromoted draft stands: what the lock records offline, what the service runs with --remote. */
function draftWords(row: StatusRow): string {
  const draft = `pushed as draft version ${row.pulled!.versionNumber}`;
  if (row.remote === undefined) return `${draft}; reduck.lock.json records no promotion`;
  return row.current ? `${draft}; the service runs version ${row.current.versionNumber}` : `${draft}; the service runs no version of it yet`;
}

/**
 * One status line for people; `dir` is the tree's folder as given, for the command a line suggests.
 *
 * @example
 * for (const row of rows) console.log(statusLine(row, "scripts"));
 */
export function statusLine(row: StatusRow, dir = "."): string {
  const waiting = row.unpromoted && row.state === "unchanged";
  const what =
    row.state === "changed"
      ? ` (${[row.code ? "code" : "", row.contractFields === null ? "contract" : row.contractFields.length ? `contract: ${row.contractFields.join(", ")}` : ""].filter(Boolean).join("; ") || "contract.json's formatting"})${row.unpromoted ? `; on draft version ${row.pulled!.versionNumber}, not promoted` : ""}`
      : waiting
        ? ` (${draftWords(row)}); promote it: reduck scripts push --promote ${row.address}${dir === "." ? "" : ` --dir ${dir}`}`
        : "";
  const here = waiting ? "not promoted" : { unchanged: "unchanged", changed: "changed here", new: "new here", removed: "removed here" }[row.state];
  const there =
    row.remote === undefined || row.remote === "same" || (row.unpromoted && row.remote === "no-current")
      ? ""
      : row.remote === "moved"
        ? row.state === "new"
          ? `; already on the service at version ${row.current!.versionNumber}`
          : `; changed on the service: version ${row.pulled?.versionNumber} -> ${row.current!.versionNumber}`
        : row.remote === "none"
          ? row.state === "new"
            ? ""
            : "; no longer on the service"
          : row.remote === "archived"
            ? "; archived on the service"
            : "; no current version on the service";
  return `${row.conflict ? "CONFLICT " : ""}${here.padEnd(13)} ${row.address}${what}${there}`;
}
