/**
 * `reduck scripts push` once every script is checked (push-plan.ts): each new folder created as a
 * script whose first version is a draft, each changed one a draft on its parent, the service's
 * diff printed, and the lock written whole right after each draft is made, so a push stopped at
 * any point leaves the lock true to what the service holds. A draft made before a stop that left
 * no trace in the lock is found again (a draft on the same parent whose code and contract hash
 * as the folder does) instead of made twice. --promote promotes each draft after checking that
 * the script still runs the version the draft was based on.
 */
import type { ReduckClient } from "../../core/client.js";
import {
  createDraftScriptVersion,
  createScript,
  getScript,
  getScriptVersion,
  listScriptVersions,
  patchScript,
  promoteScriptVersion,
} from "../../generated/operations.js";
import { paginateToArray } from "../../paginate.js";
import { keepBase } from "../../script-folders/bases.js";
import { canonical } from "../../core/json.js";
import { writeLock } from "../../script-folders/lock.js";
import { SCRIPT_FIELDS, versionBody } from "../../script-folders/service-files.js";
import type { LocalScript, ScriptTree } from "../../script-folders/tree.js";
import { CliError, fromReduckError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { addressOfKey } from "./folder-status.js";
import { basesFolder } from "./folder-tree.js";
import type { PushStep } from "./push-plan.js";
import type { VersionRecord } from "./remote-script.js";

/** What was done for one script. */
export interface Pushed {
  address: string;
  /** The draft made (or found again, or promoted). */
  versionId: string;
  versionNumber: number;
  created: boolean;
  reused: boolean;
  promoted: boolean;
  /** The service's diff of the draft against its parent. */
  diff?: { code?: string; fields: Record<string, { from: string; to: string }> };
}

type Body = ReturnType<typeof versionBody>;
const localBody = (local: LocalScript): Body =>
  versionBody({ address: local.address, contract: local.contract, code: { language: local.code!.language, text: local.code!.text } });

/**
 * A draft of this script already on the service with the same parent, code and contract as the
 * folder (made by a push that stopped before writing the lock, or by `scripts test`).
 */
export async function findDraft(client: ReduckClient, local: LocalScript, parentId: string | null): Promise<VersionRecord | undefined> {
  const path = local.address;
  const listed = await paginateToArray(listScriptVersions, { client, path, query: { pageSize: 100, draft: "true" } });
  if (listed.error) throw fromReduckError(listed.error, `listing the drafts of ${local.key}`);
  const want = localBody(local);
  for (const summary of listed.data) {
    if (!summary?.draft || (parentId !== null && summary.parent_version_id !== parentId)) continue;
    const read = await getScriptVersion({ client, path: { ...path, versionId: summary.id } });
    if (read.error) continue;
    const v = read.data;
    const same =
      v.content === want.content &&
      v.language === want.language &&
      canonical(v.input_schema) === canonical(want.input_schema) &&
      canonical(v.output_schema) === canonical(want.output_schema) &&
      (want.logged_in === undefined || v.logged_in === want.logged_in) &&
      (want.side_effects === undefined || v.side_effects === want.side_effects);
    if (same) return v as VersionRecord;
  }
  return undefined;
}

const scriptFieldsOf = (local: LocalScript) =>
  Object.fromEntries(SCRIPT_FIELDS.filter((k) => local.contract[k] !== undefined).map((k) => [k, local.contract[k]]));

/**
 * Makes (or finds again) the draft of one step, and records it in the lock at once.
 *
 * @example
 * for (const step of plan.steps) report.push(await pushStep(client, tree, step, { note, promote }));
 */
export async function pushStep(client: ReduckClient, tree: ScriptTree, step: PushStep, { note, promote }: { note: string; promote: boolean }): Promise<Pushed> {
  const { local, address } = step;
  const path = addressOfKey(address);
  let made: { id: string; version_number: number; diff?: Pushed["diff"] };
  let created = false;
  let reused = false;
  let base: string | null = null;
  if (step.kind === "promote") {
    made = { id: step.draft.versionId, version_number: step.draft.versionNumber };
    base = step.current;
  } else if (step.kind === "create") {
    const c = local.contract;
    const body = {
      host: path.host,
      slug: path.slug,
      description: c.description,
      ...localBody(local),
      side_effects: c.side_effects as "none" | "write",
      draft: true,
      ...scriptFieldsOf(local),
    };
    const answer = await createScript({ client, path: { handle: path.handle }, body: body as Parameters<typeof createScript>[0]["body"] });
    if (answer.error) throw fromReduckError(answer.error, `creating ${address}`);
    const version = await getScriptVersion({ client, path: { ...path, versionId: answer.data.created_version_id } });
    if (version.error) throw fromReduckError(version.error, `reading the new draft of ${address}`);
    made = version.data;
    created = true;
  } else {
    base = step.current;
    const found = await findDraft(client, local, step.parent.versionId);
    if (found) {
      made = found;
      reused = true;
    } else {
      const answer = await createDraftScriptVersion({ client, path, body: { ...localBody(local), parent_version_id: step.parent.versionId, note } });
      if (answer.error) throw fromReduckError(answer.error, `pushing ${address}`);
      made = answer.data;
    }
  }
  // Recorded now, whole, as a draft: a stop after this line leaves a lock that names the draft,
  // and `status` says it is not promoted until the promotion below is recorded too.
  const entry = { versionId: made.id, versionNumber: made.version_number, codeHash: local.codeHash, contractHash: local.contractHash };
  tree.lock.scripts[address] = { ...entry, draft: true };
  await writeLock(tree.root, tree.lock);
  await Promise.all([local.contractSource, local.code!.text].map((t) => keepBase(basesFolder(), t).catch(() => undefined)));
  const pushed: Pushed = {
    address,
    versionId: made.id,
    versionNumber: made.version_number,
    created,
    reused,
    promoted: false,
    ...(made.diff ? { diff: made.diff } : {}),
  };
  if (promote) {
    await promoteChecked(client, address, made.id, base, step.kind === "create");
    tree.lock.scripts[address] = entry;
    await writeLock(tree.root, tree.lock);
    await applyScriptFields(client, local);
    pushed.promoted = true;
  }
  return pushed;
}

/** Promotes a draft once the script is seen still running `base` (promotion has no such guard of its own). */
async function promoteChecked(client: ReduckClient, address: string, versionId: string, base: string | null, created: boolean): Promise<void> {
  const path = addressOfKey(address);
  const read = await getScript({ client, path });
  if (read.error) throw fromReduckError(read.error, `reading ${address} before promoting`);
  const now = read.data.current_version_id ?? null;
  if (now !== base && !(created && now === null)) {
    throw new CliError(
      `${address}: its current version changed while pushing (now ${now}); the draft ${versionId} was made but not promoted: review it, then promote it with \`reduck scripts versions promote ${address} ${versionId}\``,
      ExitCode.CONFLICT,
    );
  }
  const promoted = await promoteScriptVersion({ client, path: { ...path, versionId } });
  if (promoted.error) throw fromReduckError(promoted.error, `promoting ${address}'s draft`);
}

/** The contract's name, description and visibility are the script's: set when the draft goes live. */
async function applyScriptFields(client: ReduckClient, local: LocalScript): Promise<void> {
  const read = await getScript({ client, path: local.address });
  if (read.error) throw fromReduckError(read.error, `reading ${local.key}`);
  const body: Record<string, unknown> = {};
  for (const k of SCRIPT_FIELDS)
    if (local.contract[k] !== undefined && local.contract[k] !== (read.data as Record<string, unknown>)[k]) body[k] = local.contract[k];
  if (!Object.keys(body).length) return;
  const patched = await patchScript({ client, path: local.address, body: body as Parameters<typeof patchScript>[0]["body"] });
  if (patched.error) throw fromReduckError(patched.error, `updating ${local.key}'s ${Object.keys(body).join(", ")}`);
}

/**
 * The draft `scripts test` runs: one already made from the folder as it is (the lock's own draft,
 * or any draft of the same code and contract), else a new draft on the version the lock records.
 * The lock is left as it is: the draft is a trial, and push finds it again rather than make another.
 *
 * @example
 * const draft = await draftToTest(client, tree, "@demo/example.com/get_title");
 */
export async function draftToTest(client: ReduckClient, tree: ScriptTree, key: string): Promise<{ versionId: string; versionNumber: number; reused: boolean }> {
  const local = tree.scripts.get(key)!;
  const locked = tree.lock.scripts[key];
  if (!locked) throw new CliError(`${key} is not on the service yet: push it first (reduck scripts push ${key} --note TEXT), then test it`, ExitCode.USAGE);
  const found = await findDraft(client, local, null);
  if (found) return { versionId: found.id, versionNumber: found.version_number, reused: true };
  const answer = await createDraftScriptVersion({
    client,
    path: local.address,
    body: { ...localBody(local), parent_version_id: locked.versionId, note: "reduck scripts test" },
  });
  if (answer.error) {
    // The folder is the current version itself: nothing to draft, run that.
    if (answer.error.status === 409 && local.codeHash === locked.codeHash && local.contractHash === locked.contractHash) {
      return { versionId: locked.versionId, versionNumber: locked.versionNumber, reused: true };
    }
    throw fromReduckError(answer.error, `making a draft of ${key} to test`);
  }
  return { versionId: answer.data.id, versionNumber: answer.data.version_number, reused: false };
}
