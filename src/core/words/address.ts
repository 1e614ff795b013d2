/**
 * Script addresses, `[handle/]host/slug`: read by the CLI and by the agent tool alike, so both
 * accept the same addresses and refuse the others in the same words.
 */

export interface ScriptAddress {
  /** Undefined when the address named no owner: the caller's own scripts. */
  handle?: string;
  host: string;
  slug: string;
}

const SLUG = /^[a-z0-9_-]{1,64}$/;
/**
 * The service's rule for a host is its length alone, 1 to 253 characters (counted as JSON Schema
 * counts them, by code point): the official catalogue has hosts with no dot, such as
 * `reduck/ats-tools/detect_ats`. `.` and `..` are refused as well, since a URL path cannot carry
 * them as a segment (they would climb out of the address).
 */
const HOST_MAX = 253;

/**
 * `[handle/]host/slug`: `reduck/mail.google.com/send_email`, `@alice/x.com/post`,
 * `reduck/ats-tools/detect_ats`, `my-team/crm.internal/export`, or `linkedin.com/get_post` for
 * your own. Never throws: an
 * address it cannot read comes back as `{ problem }`, which says what is wrong and the form expected.
 *
 * @example
 * readAddress("reduck/mail.google.com/send_email"); // { handle: "reduck", host: "mail.google.com", slug: "send_email" }
 * readAddress("send_email"); // { problem: '"send_email" is not a script address: expected [handle/]host/slug, ...' }
 */
export function readAddress(text: string): ScriptAddress | { problem: string } {
  const parts = text.split("/");
  const hint = "expected [handle/]host/slug, e.g. reduck/mail.google.com/send_email";
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === "")) {
    return { problem: `${JSON.stringify(text)} is not a script address: ${hint}` };
  }
  const [handle, host, slug] = parts.length === 3 ? parts : [undefined, ...parts];
  if ([...host!].length > HOST_MAX) return { problem: `the host in ${JSON.stringify(text)} is longer than ${HOST_MAX} characters: ${hint}` };
  if (host === "." || host === "..") return { problem: `${JSON.stringify(host)} is not a host in ${JSON.stringify(text)}: ${hint}` };
  // A slug never holds a dot, so `reduck/mail.google.com` is an owner and a host with the slug left off.
  if (parts.length === 2 && slug!.includes(".")) return { problem: `${JSON.stringify(text)} ends at a host, with no script slug after it: ${hint}` };
  const badSlug = slugProblem(slug!);
  if (badSlug) return { problem: `${badSlug} in ${JSON.stringify(text)}` };
  return { handle, host: host!, slug: slug! };
}

/** What is wrong with a slug (the service's pattern), or undefined when nothing is. */
export function slugProblem(slug: string): string | undefined {
  return SLUG.test(slug) ? undefined : `${JSON.stringify(slug)} is not a script slug (lowercase letters, digits, _ and -)`;
}

/**
 * The address written back out, without a handle when it names none.
 *
 * @example
 * formatAddress({ host: "x.com", slug: "post" }); // "x.com/post"
 */
export function formatAddress(a: { handle?: string; host: string; slug: string }): string {
  return [a.handle, a.host, a.slug].filter(Boolean).join("/");
}
