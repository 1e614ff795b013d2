/**
 * The pieces every family of tool schemas is built from: input objects that refuse keys they do
 * not know (with a did-you-mean), output objects that let unknown fields through, a script's
 * name, paging, and the `next` hint.
 */
import type { z as Zod } from "zod";
import { closest } from "../../core/words/suggest.js";
import { DEFAULT_PAGE_SIZE } from "./limits.js";

/**
 * `unknown argument "browsr" (did you mean "browser"? the arguments here are ...)`. Written so
 * that the SDK's " at scripts[1]", appended for a nested object, still reads right.
 */
function unknownArgumentsMessage(keys: string[], accepted: string[]): string {
  const guesses = keys.flatMap((key) => {
    const meant = closest(key, accepted);
    return meant ? [`did you mean "${meant}"?`] : [];
  });
  const known = accepted.length ? `the arguments here are ${accepted.join(", ")}` : "this takes no arguments";
  const quoted = keys.map((key) => JSON.stringify(key)).join(", ");
  return `unknown argument${keys.length > 1 ? "s" : ""} ${quoted} (${[...guesses, known].join(" ")})`;
}

/**
 * The shared pieces, built from the zod handed in at start-up. Each recurring piece is a
 * function that builds it afresh: the JSON Schema conversion writes a repeated instance as a
 * "$ref", which not every MCP client resolves.
 */
export function schemaParts(z: typeof Zod) {
  /**
   * Every input object refuses keys it does not know, as its JSON Schema says
   * (`additionalProperties: false`): a dropped `"browsr": "managed"` once ran a script in the
   * user's own browser. The refusal names the key and the closest known one.
   */
  const closed = <S extends Zod.ZodRawShape>(shape: S) =>
    z
      .object(shape, {
        errorMap: (issue, ctx) =>
          issue.code === "unrecognized_keys" ? { message: unknownArgumentsMessage(issue.keys, Object.keys(shape)) } : { message: ctx.defaultError },
      })
      .strict();

  // Output objects accept more than they list: the service may add fields, and an agent
  // loses nothing by seeing them.
  const open = <S extends Zod.ZodRawShape>(shape: S) => z.object(shape).passthrough();

  const next = () => z.string().optional().describe("What to call next, when there is an obvious next step.");

  /** How a script is named in what a tool takes: its address, or host, slug and handle. */
  const naming = () => ({
    address: z
      .string()
      .optional()
      .describe(
        'The script\'s address as list_scripts shows it: "reduck/mail.google.com/send_email", "@alice/x.com/post", or "host/slug" for your own. Or give host, slug and handle instead.',
      ),
    host: z.string().optional().describe('The site the script targets, e.g. "mail.google.com" (with slug, instead of address).'),
    slug: z.string().optional().describe('The script\'s name on that host, e.g. "send_email" (with host, instead of address).'),
    handle: z
      .string()
      .optional()
      .describe('Owner, with host and slug: "reduck" for the official catalogue, "@username" for a person, a project handle. Omit for your own.'),
  });

  const paging = (what: string) => ({
    page: z.number().int().min(0).max(10_000).optional().describe("Page, from 0 (the answer says when there is a next one)."),
    pageSize: z.number().int().min(1).max(100).optional().describe(`${what} per page, 1-100 (default ${DEFAULT_PAGE_SIZE}).`),
  });

  /** The paging fields of a listing's answer. */
  const page = () => ({
    page: z.number().int(),
    pageSize: z.number().int(),
    hasNextPage: z.boolean(),
    totalCount: z.number().optional(),
    next: next(),
  });

  return { closed, open, next, naming, paging, page };
}

export type SchemaParts = ReturnType<typeof schemaParts>;
