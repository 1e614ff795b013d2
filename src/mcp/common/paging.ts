/**
 * The list tools page (`page`, `pageSize`) and say when there is more, and which pages there
 * are when asked for one past the end.
 */
import { fail, type ToolResult } from "./answers.js";
import { DEFAULT_PAGE_SIZE } from "./limits.js";

/**
 * The paging fields of a list's answer, with `next` when there is a next page; or, for a page
 * past the end, the tool error that says which pages there are.
 */
export function pageOf(
  tool: string,
  what: string,
  input: { page?: number; pageSize?: number },
  listed: { data: unknown[]; hasNextPage: boolean; totalCount?: number },
): { page: number; pageSize: number; hasNextPage: boolean; totalCount?: number; next?: string } | ToolResult {
  const page = input.page ?? 0;
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  const total = listed.totalCount;
  if (page > 0 && listed.data.length === 0) {
    const pages = total !== undefined ? Math.ceil(total / pageSize) : undefined;
    return fail(
      pages !== undefined
        ? `page ${page} is past the end: ${total} ${what} make ${pages} page${pages === 1 ? "" : "s"} of ${pageSize} (page 0${pages > 1 ? ` to ${pages - 1}` : ""}). Call ${tool} with page: ${Math.max(0, pages - 1)} for the last.`
        : `page ${page} is past the end: there are fewer ${what}. Call ${tool} with page: 0.`,
    );
  }
  const more = listed.hasNextPage
    ? `More ${what}${total !== undefined ? ` (${total} in all)` : ""}: call ${tool} again with page: ${page + 1}${input.pageSize ? ` and pageSize: ${pageSize}` : ""}, or narrow the search.`
    : undefined;
  return { page, pageSize, hasNextPage: listed.hasNextPage, ...(total !== undefined ? { totalCount: total } : {}), ...(more ? { next: more } : {}) };
}
