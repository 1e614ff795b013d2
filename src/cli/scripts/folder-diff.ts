/**
 * `reduck scripts diff`: for each script changed here, its code as a unified diff against what
 * was pulled, and the contract fields from and to. Offline: what was pulled is read from where
 * the pull kept it on this machine (by the hashes in the lock).
 */
import { readBase } from "../../script-folders/bases.js";
import { localChanges } from "../../script-folders/changes.js";
import { CONTRACT_KEYS, parseContract, type ScriptContractFile } from "../../script-folders/layout.js";
import { unifiedDiff } from "../../script-folders/line-diff.js";
import type { ScriptTree } from "../../script-folders/tree.js";
import { canonical } from "../../core/json.js";
import { basesFolder } from "./folder-tree.js";

export interface ScriptDiff {
  address: string;
  state: "changed" | "new";
  /** The code's unified diff (with its --- and +++ lines); null when the code did not change or what was pulled is not kept here. */
  code: string | null;
  /** Contract fields changed, from and to (absent: a new script's field). */
  fields: Record<string, { from?: unknown; to?: unknown }>;
  /** What was pulled is not kept on this machine: the changes cannot be shown. */
  pulledUnknown?: boolean;
}

/**
 * The diffs of the scripts changed here (those of `only`, when given), sorted by address.
 *
 * @example
 * for (const d of await folderDiffs(tree)) console.log(d.code);
 */
export async function folderDiffs(tree: ScriptTree, only?: Set<string>): Promise<ScriptDiff[]> {
  const changes = (await localChanges(tree, basesFolder())).filter((c) => (c.state === "changed" || c.state === "new") && (!only || only.has(c.address)));
  return Promise.all(
    changes.map(async (c): Promise<ScriptDiff> => {
      const local = c.local!;
      const file = local.code?.file ?? "script";
      const beforeCode = c.state === "new" ? "" : c.code ? await readBase(basesFolder(), c.locked?.codeHash) : local.code?.text;
      const beforeContractText = c.state === "new" ? undefined : await readBase(basesFolder(), c.locked?.contractHash);
      let before: Partial<ScriptContractFile> | undefined = c.state === "new" ? {} : undefined;
      if (beforeContractText !== undefined) before = parseContract(beforeContractText, "the pulled contract");
      const fields: ScriptDiff["fields"] = {};
      if (before) {
        for (const key of CONTRACT_KEYS) {
          if (canonical(before[key] ?? null) !== canonical(local.contract[key] ?? null)) fields[key] = { from: before[key], to: local.contract[key] };
        }
      }
      const version = c.locked ? ` (version ${c.locked.versionNumber})` : " (new)";
      const code =
        c.code && beforeCode !== undefined && local.code
          ? `--- a/${c.address}/${file}${version}\n+++ b/${c.address}/${file}\n${unifiedDiff(beforeCode, local.code.text)}`
          : null;
      const pulledUnknown = (c.code && beforeCode === undefined) || (c.contract && !before);
      return { address: c.address, state: c.state as "changed" | "new", code, fields, ...(pulledUnknown ? { pulledUnknown: true } : {}) };
    }),
  );
}

/** A field's value on one line. */
const shown = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));

/** One script's diff for people. */
export function diffText(d: ScriptDiff): string {
  const lines = [`${d.state === "new" ? "new here" : "changed here"}: ${d.address}`];
  for (const [key, { from, to }] of Object.entries(d.fields)) lines.push(`  ${key}: ${shown(from)} -> ${shown(to)}`);
  if (d.pulledUnknown) lines.push("  (the version pulled is not kept on this machine, and the service no longer has it as it was pulled)");
  if (d.code) lines.push(d.code.trimEnd());
  return lines.join("\n");
}
