/**
 * What changed here since the pull, found by content hash (never by file times): each script of
 * the tree or of its lock is unchanged, changed (its code, or which fields of its contract),
 * new (no lock entry: not yet on the service) or removed (in the lock, its folder gone).
 */
import { canonical } from "../core/json.js";
import { readBase } from "./bases.js";
import { CONTRACT_KEYS, parseContract, type ContractKey, type ScriptContractFile } from "./layout.js";
import type { LockEntry } from "./lock.js";
import type { LocalScript, ScriptTree } from "./tree.js";

export type LocalState = "unchanged" | "changed" | "new" | "removed";

/** One script's change here. */
export interface LocalChange {
  /** `handle/host/slug`. */
  address: string;
  state: LocalState;
  /** The code differs from what was pulled. */
  code: boolean;
  /** The contract's fields that differ; undefined when the contract changed but what was pulled is not kept on this machine. */
  contractFields?: ContractKey[];
  /** Whether contract.json differs from what was pulled. */
  contract: boolean;
  local?: LocalScript;
  locked?: LockEntry;
}

/**
 * The fields of two contracts that differ (schemas compared as JSON, whatever their key order).
 *
 * @example
 * changedFields(a, { ...a, description: "new" }); // ["description"]
 */
export function changedFields(before: ScriptContractFile, after: ScriptContractFile): ContractKey[] {
  return CONTRACT_KEYS.filter((key) => canonical(before[key] ?? null) !== canonical(after[key] ?? null));
}

/**
 * Each script's change since the pull, sorted by address. `bases` is the folder where what was
 * pulled is kept (to name the contract fields changed); without it, or when a pull happened on
 * another machine, a changed contract's fields are undefined.
 *
 * @example
 * const changes = await localChanges(await readScriptTree("./scripts"), basesFolder);
 */
export async function localChanges(tree: ScriptTree, bases?: string): Promise<LocalChange[]> {
  const addresses = [...new Set([...tree.scripts.keys(), ...Object.keys(tree.lock.scripts)])].sort();
  return Promise.all(
    addresses.map(async (address): Promise<LocalChange> => {
      const local = tree.scripts.get(address);
      const locked = tree.lock.scripts[address];
      if (!local) return { address, state: "removed", code: false, contract: false, locked };
      if (!locked) return { address, state: "new", code: true, contract: true, local };
      const code = local.codeHash !== locked.codeHash;
      const contract = local.contractHash !== locked.contractHash;
      let contractFields: ContractKey[] | undefined;
      if (contract) {
        const before = await readBase(bases, locked.contractHash);
        if (before !== undefined) {
          try {
            contractFields = changedFields(parseContract(before, "pulled contract"), local.contract);
          } catch {
            contractFields = undefined;
          }
        }
      } else contractFields = [];
      return { address, state: code || contract ? "changed" : "unchanged", code, contract, contractFields, local, locked };
    }),
  );
}
