/**
 * The scripts tree as the CLI meets it: read with each problem as one usage line naming the file
 * (under the --dir given), where what was pulled is kept (the config folder), and a bounded
 * number of calls in flight.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { ScriptFolderError } from "../../script-folders/layout.js";
import { readScriptTree, type ScriptTree } from "../../script-folders/tree.js";
import type { ScriptContract } from "../../typegen/module.js";
import { configDir } from "../shell/config.js";
import { usageError } from "../shell/errors.js";

/** How many calls a pull or push has in flight at most. */
export const IN_FLIGHT = 8;

/** Where what was pulled is kept, by content hash. */
export const basesFolder = () => path.join(configDir(), "pulled");

/** A ScriptFolderError as a usage error naming the file under `dir`; anything else as it is. */
export function treeError(err: unknown, dir: string): unknown {
  if (!(err instanceof ScriptFolderError)) return err;
  const file = dir === "." || dir === "" ? err.file : path.join(dir, err.file);
  return usageError(`${file}: ${err.problem}`);
}

/**
 * The tree at `dir`, read strictly (a usage error naming the file at fault); `mustExist`: a
 * missing folder is a usage error too.
 *
 * @example
 * const tree = await readTree(this.flags.dir);
 */
export async function readTree(dir: string, { mustExist = true, ignoreLock = false } = {}): Promise<ScriptTree> {
  const found = await stat(dir).catch(() => undefined);
  if (found && !found.isDirectory()) throw usageError(`--dir ${dir}: not a folder`);
  if (!found && mustExist) throw usageError(`--dir ${dir}: no such folder (pull scripts into it first: reduck scripts pull --dir ${dir})`);
  try {
    return await readScriptTree(dir, { ignoreLock });
  } catch (err) {
    throw treeError(err, dir);
  }
}

/**
 * `work` for each item, at most `limit` at once, results in the items' order. After a failure
 * no new item is started, and the first failure is thrown once those in flight have ended.
 *
 * @example
 * const scripts = await inPool(paths, IN_FLIGHT, (p) => readScriptOrSuggest(client, p));
 */
export async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i]!);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.err;
  return results;
}

/**
 * The contracts of a tree's scripts as `scripts types` makes its module from them: each at the
 * version the lock records (a folder not yet pushed: version 0, id "local").
 *
 * @example
 * const contracts = treeContracts(await readTree("scripts"));
 */
export function treeContracts(tree: ScriptTree): ScriptContract[] {
  return [...tree.scripts.values()].map((s) => {
    const locked = tree.lock.scripts[s.key];
    return {
      ...s.address,
      ...(s.contract.name !== undefined ? { name: s.contract.name } : {}),
      description: s.contract.description,
      versionId: locked?.versionId ?? "local",
      versionNumber: locked?.versionNumber ?? 0,
      inputSchema: s.contract.input_schema,
      outputSchema: s.contract.output_schema,
    };
  });
}
