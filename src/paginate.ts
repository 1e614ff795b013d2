import type { ReduckError } from "./core/errors.js";
import type { ListResult } from "./core/types.js";

/** A list function (`listRuns`, `listAllScripts`...): one page of items per call. */
export type ListFunction<O, T> = (options: O) => Promise<ListResult<T>>;
type WithQuery = { query?: { page?: number } & Record<string, unknown> };

/** Thrown by `paginate` when a page fails: a `for await` loop has no other way to say so. */
export class ReduckPageError extends Error {
  override name = "ReduckPageError";
  constructor(readonly detail: ReduckError) {
    super(detail.error);
  }
}

/**
 * Every item of a list function, across pages, starting at `query.page` (or 0).
 * Stops after `max` items when given.
 *
 * @example
 * ```ts
 * for await (const script of paginate(listAllScripts, { client, query: { host: "x.com" } })) {
 *   console.log(script.slug);
 * }
 * ```
 */
export async function* paginate<O extends WithQuery, T>(
  list: ListFunction<O, T>,
  options: O,
  { max = Infinity }: { max?: number } = {},
): AsyncGenerator<T, void, undefined> {
  let page = options.query?.page ?? 0;
  let yielded = 0;
  while (yielded < max) {
    const result = await list({ ...options, query: { ...options.query, page } });
    if (result.error) throw new ReduckPageError(result.error);
    for (const item of result.data) {
      if (yielded >= max) return;
      yield item;
      yielded++;
    }
    if (!result.hasNextPage || result.data.length === 0) return;
    page++;
  }
}

/**
 * Like `paginate`, but collects every item into an array and never throws: a page that fails
 * gives its `error` beside the items gathered before it.
 *
 * @example
 * ```ts
 * const { data, error } = await paginateToArray(listRuns, { client }, { max: 500 });
 * ```
 */
export async function paginateToArray<O extends WithQuery, T>(
  list: ListFunction<O, T>,
  options: O,
  limits: { max?: number } = {},
): Promise<{ data: T[]; error: undefined } | { data: T[]; error: ReduckError }> {
  const data: T[] = [];
  try {
    for await (const item of paginate(list, options, limits)) data.push(item);
    return { data, error: undefined };
  } catch (err) {
    if (err instanceof ReduckPageError) return { data, error: err.detail };
    // Never throws: anything else is how it was called (a list that is not a function...).
    return { data, error: { kind: "invalid_request", code: "invalid_options", error: `paginateToArray: ${err instanceof Error ? err.message : String(err)}` } };
  }
}

/**
 * The former name of `paginateToArray` (it read as "all of all" beside `listAllScripts`).
 *
 * @deprecated Use `paginateToArray`, the same function.
 */
export const listAll = paginateToArray;
