/**
 * `scriptAt`: a script's address as text turned into the parts runScript takes, typed with the
 * literal handle, host and slug, so that a registered script is typed without `as const`.
 */
import { readAddress } from "../core/words/address.js";
import type { ScriptAddressFor } from "./typed.js";

/** The parts of an address written as text: `{ handle, host, slug }`, or `{ host, slug }` for your own script. */
export type AddressParts<A extends string> = A extends `${infer H}/${infer Ho}/${infer S}`
  ? { handle: H; host: Ho; slug: S }
  : A extends `${infer Ho}/${infer S}`
    ? { host: Ho; slug: S }
    : { handle?: string; host: string; slug: string };

/**
 * The parts of `handle/host/slug`, typed as written: spread them into a script, or keep them in a
 * variable, and a registered script's args, files and result are typed with no `as const` (an
 * object literal's strings widen to `string` once stored; these do not). In a strict registry
 * (ReduckScriptsConfig), an address no module registered does not compile. Throws a `TypeError`
 * for text that is not an address (a mistake in the code, as with a literal it is).
 *
 * @example
 * ```ts
 * import { createReduckClient, runScript, scriptAt } from "reduck-client";
 * const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY });
 * const send = scriptAt("reduck/mail.google.com/send_email"); // { handle: "reduck", host: "mail.google.com", slug: "send_email" }
 * const { data } = await runScript({ client, script: { ...send, args: { to: "me@example.com", subject: "Hi" } } });
 * ```
 */
export function scriptAt<const A extends ScriptAddressFor>(address: A): AddressParts<A> {
  const read = readAddress(address);
  if ("problem" in read) throw new TypeError(`scriptAt: ${read.problem}`);
  return (read.handle === undefined ? { host: read.host, slug: read.slug } : { handle: read.handle, host: read.host, slug: read.slug }) as AddressParts<A>;
}
