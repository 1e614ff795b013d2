/**
 * A script as the service holds it now, read for pull, status --remote and push: its record,
 * its current version as files, or why there is nothing to read (no such script, archived).
 */
import type { ReduckClient } from "../../core/client.js";
import { getScript, getScriptVersion } from "../../generated/operations.js";
import { keepBase } from "../../script-folders/bases.js";
import type { components } from "../../generated/schema.js";
import { addressText, contractText, type ScriptFolderAddress } from "../../script-folders/layout.js";
import { filesOf, hashesOf } from "../../script-folders/service-files.js";
import type { ScriptFolderFiles } from "../../script-folders/tree.js";
import { checkAnswer } from "../shell/answer-check.js";
import { SCRIPT } from "../shell/answer-shapes.js";
import { fromReduckError } from "../shell/errors.js";

export type ScriptRecord = components["schemas"]["ScriptWithVersion"];
export type VersionRecord = components["schemas"]["ScriptVersion"];

/** A script read from the service. */
export interface RemoteScript {
  key: string;
  script: ScriptRecord;
  /** Its current version, null when it has only drafts. */
  current: VersionRecord | null;
  /** The current version as files, with their hashes; absent when there is none or it cannot be a folder. */
  files?: ScriptFolderFiles;
  hashes?: { codeHash: string | null; contractHash: string };
  /** Why the current version cannot be written as files. */
  problem?: string;
}

/** No script to read: none at that address, or archived. */
export interface MissingScript {
  key: string;
  missing: "none" | "archived";
}

/**
 * The script at `address` now; a refusal other than 404 fails the command.
 *
 * @example
 * const remote = await readRemote(client, { handle: "@demo", host: "example.com", slug: "get_title" });
 */
export async function readRemote(client: ReduckClient, address: ScriptFolderAddress): Promise<RemoteScript | MissingScript> {
  const key = addressText(address);
  const doing = `reading ${key}`;
  const read = await getScript({ client, path: address });
  if (read.error) {
    if (read.error.status === 404) return { key, missing: "none" };
    throw fromReduckError(read.error, doing);
  }
  const script = checkAnswer(read.data, SCRIPT, doing) as ScriptRecord;
  if (script.archived_at) return { key, missing: "archived" };
  const current = script.current_version;
  if (!current) return { key, script, current: null };
  const files = filesOf(address, script, current);
  if ("problem" in files) return { key, script, current, problem: files.problem };
  return { key, script, current, files, hashes: hashesOf(files) };
}

/** Words for a missing script. */
export function missingWords(m: MissingScript): string {
  return m.missing === "archived"
    ? `${m.key} is archived on the service (restore it first: reduck scripts restore ${m.key})`
    : `${m.key}: no such script on the service`;
}

/**
 * What was pulled, read again from the service when this machine does not keep it (the tree was
 * pulled elsewhere, then cloned): the version the lock records, as files, kept by hash only when
 * it hashes to what the lock records (the script's own fields may have changed since). Returns
 * whether both files were recovered.
 *
 * @example
 * await recoverPulled(client, "@demo/example.com/get_title", tree.lock.scripts[key]);
 */
export async function recoverPulled(
  client: ReduckClient,
  key: string,
  locked: { versionId: string; codeHash: string | null; contractHash: string },
  bases: string,
): Promise<boolean> {
  const address = addressOfText(key);
  const [script, version] = await Promise.all([
    getScript({ client, path: address }),
    getScriptVersion({ client, path: { ...address, versionId: locked.versionId } }),
  ]);
  if (script.error || version.error) return false;
  const files = filesOf(address, script.data, version.data as VersionRecord);
  if ("problem" in files) return false;
  const hashes = hashesOf(files);
  let both = true;
  if (files.code && hashes.codeHash === locked.codeHash) await keepBase(bases, files.code.text);
  else both = false;
  if (hashes.contractHash === locked.contractHash) await keepBase(bases, contractText(files.contract));
  else both = false;
  return both;
}

const addressOfText = (key: string): ScriptFolderAddress => {
  const [handle = "", host = "", slug = ""] = key.split("/");
  return { handle, host, slug };
};
