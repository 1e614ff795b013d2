/**
 * The paging flags every list command shares (`--page`, `--page-size`, `--all`) and the one
 * way lists are fetched with them: a single page with a note when more exist, or every page.
 */
import { Flags } from "@oclif/core";
import type { ReduckError } from "../../core/errors.js";
import type { ListResult } from "../../core/types.js";
import { paginateToArray } from "../../paginate.js";
import { checkAnswer, list as listOf, type Shape } from "./answer-check.js";
import { fromReduckError } from "./errors.js";
import { morePagesNote } from "./output.js";

export const pageFlags = {
  page: Flags.integer({ description: "Page to show, counting from 0.", min: 0, exclusive: ["all"] }),
  "page-size": Flags.integer({ description: "Items per page (1 to 100; the service's default is 20).", min: 1, max: 100 }),
  all: Flags.boolean({ description: "Fetch every page instead of one.", exclusive: ["page"] }),
};

export interface PageFlagValues {
  page?: number;
  "page-size"?: number;
  all?: boolean;
}

/** A page as the API answers it, and as `--json` prints it. */
export interface Page<T> {
  data: T[];
  hasNextPage: boolean;
  totalCount?: number;
}

export interface FetchedList<T> {
  items: T[];
  /** What `--json` prints: the API's page (with `--all`, every item and `hasNextPage: false`). */
  page: Page<T>;
  /** The note for stderr when more pages exist (never with --all). */
  note?: string;
}

type ListFn<O, T> = (options: O) => Promise<ListResult<T>>;
type WithQuery = { query?: { page?: number; pageSize?: number } & Record<string, unknown> };

/**
 * One page (with the "more pages" note), or with `--all` every page. Fails the command with
 * the call's error, saying what it was doing (or with what `fail` makes of it), or when an item
 * is not of the `item` shape (answer-check.ts).
 *
 * @example
 * const { items, note } = await fetchList(listRuns, { client, query: { status } }, this.flags, "listing runs");
 */
export async function fetchList<O extends WithQuery, T>(
  list: ListFn<O, T>,
  options: O,
  flags: PageFlagValues,
  doing: string,
  /** The error to fail with (default: the service's, as fromReduckError says it). */
  fail: (error: ReduckError) => Error | Promise<Error> = (error) => fromReduckError(error, doing),
  /** What each item must be (default: anything). */
  item?: Shape,
): Promise<FetchedList<T>> {
  const checked = (items: T[]) => (item ? checkAnswer(items, listOf(item), doing) : items);
  const query = { ...options.query } as NonNullable<O["query"]>;
  if (flags["page-size"] !== undefined) query.pageSize = flags["page-size"];
  if (flags.all) {
    // Fewest requests for everything: the largest page unless one was asked for.
    query.pageSize ??= 100;
    const result = await paginateToArray(list, { ...options, query });
    if (result.error) throw await fail(result.error);
    const items = checked(result.data);
    return { items, page: { data: items, hasNextPage: false, totalCount: items.length } };
  }
  const page = flags.page ?? 0;
  query.page = page;
  const result = await list({ ...options, query });
  if (result.error) throw await fail(result.error);
  const items = checked(result.data);
  return {
    items,
    page: { data: items, hasNextPage: result.hasNextPage, ...(result.totalCount !== undefined ? { totalCount: result.totalCount } : {}) },
    note: morePagesNote(result.data.length, result.totalCount, page, result.hasNextPage),
  };
}

/** A timestamp for a table: to the second, in UTC. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return "-";
  return iso.replace(/\.\d+Z$/, "Z");
}

export function yesNo(value: boolean | null | undefined): string {
  return value === null || value === undefined ? "-" : value ? "yes" : "no";
}
