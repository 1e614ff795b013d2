import { usageError } from "./errors.js";

export interface ScriptAddress {
  /** Undefined when the address named no owner: the caller's own scripts. */
  handle?: string;
  host: string;
  slug: string;
}

const SLUG = /^[a-z0-9_-]{1,64}$/;
const HOST = /^[A-Za-z0-9.-]{1,253}$/;

/**
 * `[handle/]host/slug`: `reduck/mail.google.com/send_email`, `@alice/x.com/post`,
 * `my-team/crm.internal/export`, or `linkedin.com/get_post` for your own.
 */
export function parseAddress(text: string): ScriptAddress {
  const parts = text.split("/");
  const hint = "expected [handle/]host/slug, e.g. reduck/mail.google.com/send_email";
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === "")) {
    throw usageError(`${JSON.stringify(text)} is not a script address: ${hint}`);
  }
  const [handle, host, slug] = parts.length === 3 ? parts : [undefined, ...parts];
  if (!HOST.test(host!) || !host!.includes(".")) throw usageError(`${JSON.stringify(host)} is not a host name in ${JSON.stringify(text)}: ${hint}`);
  if (!SLUG.test(slug!)) throw usageError(`${JSON.stringify(slug)} is not a script slug (lowercase letters, digits, _ and -) in ${JSON.stringify(text)}`);
  return { handle, host: host!, slug: slug! };
}

export function formatAddress(a: { handle?: string; host: string; slug: string }): string {
  return [a.handle, a.host, a.slug].filter(Boolean).join("/");
}
