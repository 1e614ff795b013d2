/**
 * A batch split across machines: shard I of N sends only the rows whose values hash to I. Every
 * row belongs to exactly one shard, and the split is the same on every machine given the same
 * input.
 *
 * Why a hash of the row's values and not its number: a row keeps its shard when rows are
 * inserted, removed or reordered in the input, so a shard resumed after an edit never sends a
 * row another shard's journal already holds (its journal recognises rows by their values too).
 * Row numbers would move every row after an edit into another shard, whose journal does not
 * know it: it would run twice. The hash is of the row's own cells only (not the script's
 * version, which two machines may read a moment apart, nor the arguments given for every row),
 * so identical rows land in the same shard, where the journal tells their occurrences apart.
 */
import { createHash } from "node:crypto";
import { canonical } from "../core/json.js";
import type { RowValues } from "./rows.js";
import { count as grouped } from "../core/words/count.js";

/** Shard `index` (1 to `count`) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** The most shards a batch is split into. */
export const MAX_SHARDS = 10_000;

/**
 * Reads `I/N` (`1/4`), or says what is wrong with it.
 *
 * @example
 * parseShard("2/4"); // { index: 2, count: 4 }
 * parseShard("5/4"); // "the shard's number must be from 1 to 4 (1/4 ... 4/4), not 5"
 */
export function parseShard(text: string): Shard | string {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) return "give the shard as I/N, e.g. 1/4 for the first of four (I from 1 to N)";
  return shardProblem({ index: Number(match[1]), count: Number(match[2]) }) ?? { index: Number(match[1]), count: Number(match[2]) };
}

/** What is wrong with a shard, or undefined. */
export function shardProblem(shard: unknown): string | undefined {
  const s = shard as Partial<Shard> | undefined;
  if (!s || typeof s !== "object") return "shard must be { index, count }, e.g. { index: 1, count: 4 }";
  const { index, count } = s;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 1 || count > MAX_SHARDS)
    return `the number of shards must be a whole number from 1 to ${grouped(MAX_SHARDS)}, not ${String(count)}`;
  if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 1 || index > count)
    return `the shard's number must be from 1 to ${count} (1/${count} ... ${count}/${count}), not ${String(index)}`;
  return undefined;
}

/** `1/4`, as the journal and the report name a shard. */
export const shardName = (shard: Shard): string => `${shard.index}/${shard.count}`;

/**
 * Whether a row (its values as read from the input) is shard `shard`'s.
 *
 * @example
 * [1, 2, 3].filter((i) => inShard({ to: "ada@example.com" }, { index: i, count: 3 })).length; // 1
 */
export function inShard(values: RowValues, shard: Shard | undefined): boolean {
  if (!shard || shard.count === 1) return true;
  // 52 bits of the hash: a whole number a double holds exactly.
  const hash = Number.parseInt(createHash("sha256").update(canonical(values)).digest("hex").slice(0, 13), 16);
  return hash % shard.count === shard.index - 1;
}
