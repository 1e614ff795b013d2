/**
 * `reduck scripts status` and `diff`: what changed here since the pull (offline, by content
 * hash), and with the service asked (--remote) what changed there: a script whose current
 * version moved since the pull, and the conflicts (changed on both sides).
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
    }),
  );
  if (!client) return rows;
  await inPool(rows, IN_FLIGHT, async (row) => {
    const address = addressOfKey(row.address);
    const remote = await readRemote(client, address);
    if ("missing" in remote) row.remote = remote.missing;
    else if (!remote.current) row.remote = "no-current";
    else {
      row.current = { versionId: remote.current.id, versionNumber: remote.current.version_number };
      const pulled = row.pulled?.versionId;
      if (!pulled) row.remote = "moved";
      else if (remote.current.id === pulled) row.remote = "same";
      else row.remote = (await standsOn(client, address, pulled)) === remote.current.id ? "same" : "moved";
    }
    const changedHere = row.state === "changed" || row.state === "new";
    row.conflict = changedHere && row.remote !== "same" && !(row.state === "new" && row.remote === "none");
  });
  return rows;
}

/** One status line for people. */
export function statusLine(row: StatusRow): string {
  const what =
    row.state === "changed"
      ? ` (${[row.code ? "code" : "", row.contractFields === null ? "contract" : row.contractFields.length ? `contract: ${row.contractFields.join(", ")}` : ""].filter(Boolean).join("; ") || "contract.json's formatting"})`
      : "";
  const here = { unchanged: "unchanged", changed: "changed here", new: "new here", removed: "removed here" }[row.state];
  const there =
    row.remote === undefined || row.remote === "same"
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
