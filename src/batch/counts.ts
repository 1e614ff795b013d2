/** A batch's counts as they start, before any row is read. */
import type { BatchCounts, RunManyOptions } from "./run-many-types.js";
import type { RowValues } from "./rows.js";
import { inShard, shardProblem } from "./shard.js";

/** Every count at zero, and the total when it is known before the rows are read. */
export function startingCounts(options: RunManyOptions | undefined): BatchCounts {
  const known = knownTotal(options);
  return {
    total: known ?? 0,
    totalKnown: known !== undefined,
    completed: 0,
    failed: 0,
    invalid: 0,
    unknown: 0,
    inFlight: 0,
    leftRunning: 0,
    earlier: 0,
  };
}

/**
 * The number of rows, when it is known before they are read: an array's length (its shard's
 * rows, with `shard`), or what the caller counted.
 */
export function knownTotal(options: RunManyOptions | undefined): number | undefined {
  if (!options || typeof options !== "object") return undefined;
  if (Array.isArray(options.rows)) {
    if (options.shard === undefined) return options.rows.length;
    if (shardProblem(options.shard)) return undefined;
    return options.rows.filter((row) => inShard(row as RowValues, options.shard)).length;
  }
  const given = options.total;
  return typeof given === "number" && Number.isInteger(given) && given >= 0 ? given : undefined;
}
