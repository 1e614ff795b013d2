/**
 * What `reduck scripts push` would send, every script checked before anything is: a new folder
 * becomes a new script (as a draft); a changed one a draft on the version it was pulled from.
 * Refused, with nothing sent: a script changed on the service since the pull (unless --force,
 * which bases the draft on the current version), gone or archived there, a new folder whose
 * address the service already has, a script whose code the service withholds.
 */
import type { ReduckClient } from "../../core/client.js";
import { localChanges, type LocalChange } from "../../script-folders/changes.js";
import type { LocalScript, ScriptTree } from "../../script-folders/tree.js";
import { usageError } from "../shell/errors.js";
import { addressOfKey, standsOn } from "./folder-status.js";
import { basesFolder, IN_FLIGHT, inPool } from "./folder-tree.js";
import { missingWords, readRemote, type ScriptRecord } from "./remote-script.js";

/** One script to push. */
export type PushStep =
  | { kind: "create"; address: string; local: LocalScript }
  | {
      kind: "draft";
      address: string;
      local: LocalScript;
      /** The version the draft builds on: the lock's, or with --force the current one. */
      parent: { versionId: string; versionNumber: number };
      /** The version the script runs now (promotion checks it is still this one). */
      current: string | null;
      script: ScriptRecord;
    }
  | {
      kind: "promote";
      address: string;
      local: LocalScript;
      /** The draft the lock records, pushed earlier and not yet promoted. */
      draft: { versionId: string; versionNumber: number };
      current: string | null;
      script: ScriptRecord;
    };

export interface PushPlan {
  steps: PushStep[];
  /** Refusals, one line each: when there are any, nothing is sent. */
  refused: string[];
  /** Scripts removed here: push does not archive them. */
  removed: string[];
}

/** The addresses the PATH|ADDRESS arguments name, within the tree. */
export function selected(tree: ScriptTree, dir: string, given: readonly string[], pathOf: (p: string) => string): Set<string> | undefined {
  if (!given.length) return undefined;
  const keys = new Set<string>();
  for (const g of given) {
    const key = tree.scripts.has(g) || g in tree.lock.scripts ? g : pathOf(g);
    if (!tree.scripts.has(key) && !(key in tree.lock.scripts)) {
      throw usageError(`${g} is no script folder of ${dir}: give a folder such as ${dir === "." ? "" : `${dir}/`}@you/example.com/get_title, or its address`);
    }
    keys.add(key);
  }
  return keys;
}

/**
 * Checks every script to push against the service.
 *
 * @example
 * const plan = await planPush(client, tree, { only, force: false, promote: true });
 */
export async function planPush(
  client: ReduckClient,
  tree: ScriptTree,
  { only, force, promote, dir = "." }: { only?: Set<string>; force: boolean; promote: boolean; dir?: string },
): Promise<PushPlan> {
  const changes = (await localChanges(tree, basesFolder())).filter((c) => !only || only.has(c.address));
  const plan: PushPlan = { steps: [], refused: [], removed: changes.filter((c) => c.state === "removed").map((c) => c.address) };
  const candidates = changes.filter((c) => c.state === "new" || c.state === "changed" || (promote && c.state === "unchanged"));
  const steps = await inPool(candidates, IN_FLIGHT, (c) => check(client, c, force, plan.refused, dir));
  plan.steps = steps.filter((s): s is PushStep => s !== undefined);
  plan.refused.sort();
  return plan;
}

async function check(client: ReduckClient, c: LocalChange, force: boolean, refused: string[], dir: string): Promise<PushStep | undefined> {
  const local = c.local!;
  const key = c.address;
  if (!local.code) {
    if (c.state !== "unchanged")
      refused.push(`${key}: the service withholds its code, so its folder cannot be pushed (pull it again: reduck scripts pull ${key} --force)`);
    return undefined;
  }
  const remote = await readRemote(client, addressOfKey(key));
  if (c.state === "new") {
    if ("missing" in remote && remote.missing === "none") {
      const sideEffects = local.contract.side_effects;
      if (sideEffects !== "none" && sideEffects !== "write") {
        refused.push(`${key}/contract.json: a new script needs side_effects: "none" (it only reads) or "write" (it acts on the site)`);
        return undefined;
      }
      return { kind: "create", address: key, local };
    }
    refused.push(
      `${key}: the service already has a script at this address, which was never pulled here (pull it first: reduck scripts pull ${key}, then apply your changes)`,
    );
    return undefined;
  }
  if ("missing" in remote) {
    refused.push(missingWords(remote));
    return undefined;
  }
  const locked = c.locked!;
  const current = remote.current?.id ?? null;
  const base = current === locked.versionId ? current : await standsOn(client, addressOfKey(key), locked.versionId);
  const moved = current !== null && current !== locked.versionId && base !== current;
  if (c.state === "unchanged") {
    // --promote with nothing changed here: the draft the lock records, if it is one not yet promoted.
    if (current === locked.versionId || base === locked.versionId) return undefined;
    if (moved) refused.push(movedWords(key, locked, remote.current!, "promote", dir));
    else
      return {
        kind: "promote",
        address: key,
        local,
        draft: { versionId: locked.versionId, versionNumber: locked.versionNumber },
        current,
        script: remote.script,
      };
    return undefined;
  }
  if (moved && !force) {
    refused.push(movedWords(key, locked, remote.current!, "push", dir));
    return undefined;
  }
  const parent = moved
    ? { versionId: remote.current!.id, versionNumber: remote.current!.version_number }
    : { versionId: locked.versionId, versionNumber: locked.versionNumber };
  return { kind: "draft", address: key, local, parent, current, script: remote.script };
}

function movedWords(
  key: string,
  pulled: { versionId: string; versionNumber: number },
  now: { id: string; version_number: number },
  verb: string,
  dir: string,
): string {
  return `${key}: changed on the service since the pull: pulled version ${pulled.versionNumber} (${pulled.versionId}), current version ${now.version_number} (${now.id}). Pull the newer one with \`reduck scripts pull ${key}${dir === "." ? "" : ` --dir ${dir}`} --force\` (it overwrites your changes here: save them first), or ${verb} with --force to base the draft on version ${now.version_number}`;
}
