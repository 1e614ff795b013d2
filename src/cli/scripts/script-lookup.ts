/**
 * Reading a script, with a way out when its address names none: the closest slugs the same
 * owner has on that host (`did you mean reduck/mail.google.com/send_email?`).
 */
import type { ReduckClient } from "../../client.js";
import { getScript, listScripts } from "../../generated/operations.js";
import { formatAddress } from "../shell/address.js";
import { CliError, fromReduckError } from "../shell/errors.js";
import type { ScriptPath } from "./own-handle.js";
import { closestMatches } from "../../core/suggest.js";

/** The handle of the official catalogue. */
export const OFFICIAL_HANDLE = "reduck";

/** `reduck/<host>/<slug>` when the official catalogue has the script `path` names under another handle. */
async function officialTwin(client: ReduckClient, path: ScriptPath): Promise<string | undefined> {
  if (path.handle === OFFICIAL_HANDLE) return undefined;
  const twin = { handle: OFFICIAL_HANDLE, host: path.host, slug: path.slug };
  const read = await getScript({ client, path: twin });
  return read.error ? undefined : formatAddress(twin);
}

/**
 * The script at `path`, or the command fails with the service's message, plus the closest
 * slugs on that host when the script does not exist, or the official script of that name when
 * the official catalogue has it (`mail.google.com/send_email` for `reduck/mail.google.com/send_email`).
 *
 * @example
 * const script = await readScriptOrSuggest(client, { handle: "reduck", host: "mail.google.com", slug: "send_emial" });
 * // fails: "reading reduck/mail.google.com/send_emial: No such script: ... Did you mean reduck/mail.google.com/send_email?"
 */
export async function readScriptOrSuggest(client: ReduckClient, path: ScriptPath) {
  const address = formatAddress(path);
  const read = await getScript({ client, path });
  if (!read.error) return read.data;
  const error = fromReduckError(read.error, `reading ${address}`);
  if (read.error.status !== 404) throw error;
  const official = await officialTwin(client, path);
  if (official) {
    throw new CliError(
      `${/[.!?]$/.test(error.message) ? error.message : `${error.message}.`} Did you mean ${official}, the official script? An address without a handle names one of your own scripts; official ones start with ${OFFICIAL_HANDLE}/.`,
      error.exitCode,
      error.detail,
    );
  }
  const others = await listScripts({ client, path: { handle: path.handle }, query: { host: path.host, pageSize: 100 } });
  const slugs = others.error ? [] : others.data.filter((s) => s.host === path.host).map((s) => s.slug);
  const close = closestMatches(path.slug, slugs);
  const hint = close.length
    ? ` Did you mean ${close.map((slug) => formatAddress({ ...path, slug })).join(" or ")}?`
    : slugs.length
      ? ` ${path.handle} has on ${path.host}: ${slugs.slice(0, 5).join(", ")}${slugs.length > 5 ? ", ..." : ""}.`
      : "";
  if (!hint) throw error;
  throw new CliError(`${/[.!?]$/.test(error.message) ? error.message : `${error.message}.`}${hint}`, error.exitCode, error.detail);
}
