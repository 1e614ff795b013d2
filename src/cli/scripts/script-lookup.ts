/**
 * Reading a script, with a way out when its address names none: the scripts it most likely
 * meant (`did you mean reduck/mail.google.com/send_email?`), or for an owner the service does not
 * know, the handles it most likely meant. An address the service does not know is the user's
 * input to fix, like a malformed one: exit 2.
 */
import type { ReduckClient } from "../../core/client.js";
import type { ReduckError } from "../../core/errors.js";
import { unknownHandleHint, unknownScriptHint } from "../../core/words/nearby-scripts.js";
import { withHint } from "../../core/words/sentence.js";
import { getScript } from "../../generated/operations.js";
import { formatAddress } from "../shell/address.js";
import { CliError, fromReduckError, unknownNameError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { checkAnswer, type Shape } from "../shell/answer-check.js";
import type { ScriptPath } from "./own-handle.js";
import { SCRIPT } from "../shell/answer-shapes.js";

export { OFFICIAL_HANDLE } from "../../core/words/nearby-scripts.js";

/**
 * The error for a call about the script at `path` that failed: when the script does not exist,
 * a usage error (exit 2) with the scripts the address most likely meant; otherwise the error as
 * it is. `known` says the script was just read and found missing (no need to look again).
 *
 * @example
 * const patched = await patchScript({ client, path, body });
 * if (patched.error) throw await scriptCallError(client, path, patched.error, `updating ${formatAddress(path)}`);
 */
export async function scriptCallError(
  client: ReduckClient,
  path: ScriptPath,
  error: ReduckError,
  doing?: string,
  { known = false, ownImplied = path.handle.startsWith("@") }: { known?: boolean; ownImplied?: boolean } = {},
): Promise<CliError> {
  const cli = fromReduckError(error, doing);
  if (error.status !== 404) return cli;
  // A 404 from a call on a version or a readme may be about that, not the script: ask.
  if (!known) {
    const read = await getScript({ client, path });
    if (!read.error || read.error.status !== 404) return cli;
  }
  const hint = await unknownScriptHint(client, { ...path, ownImplied });
  return new CliError(withHint(cli.message, hint), ExitCode.USAGE, cli.detail);
}

/**
 * The data of a call about the script at `path`, or the command fails: with exit 2 and the
 * scripts the address most likely meant when that script does not exist; with exit 1 when the
 * data is not of `shape`.
 *
 * @example
 * const script = await unwrapScript(client, await patchScript({ client, path, body }), path, `updating ${address}`);
 */
export async function unwrapScript<D>(
  client: ReduckClient,
  result: { data: D; error: undefined } | { data: undefined; error: ReduckError },
  path: ScriptPath,
  doing: string,
  shape?: Shape,
): Promise<D> {
  if (result.error) throw await scriptCallError(client, path, result.error, doing);
  return shape ? checkAnswer(result.data as D, shape, doing) : (result.data as D);
}

/**
 * The script at `path`, or the command fails with the service's message; when the script does
 * not exist, exit 2 and the scripts it most likely meant (a close slug on that host, the same
 * slug on a close host, the official script of that name).
 *
 * @example
 * const script = await readScriptOrSuggest(client, { handle: "reduck", host: "mail.google.com", slug: "send_emial" });
 * // fails: "reading reduck/mail.google.com/send_emial: No such script: ... Did you mean reduck/mail.google.com/send_email?"
 */
export async function readScriptOrSuggest(client: ReduckClient, path: ScriptPath, ownImplied?: boolean, shape: Shape = SCRIPT) {
  const doing = `reading ${formatAddress(path)}`;
  const read = await getScript({ client, path });
  if (!read.error) return checkAnswer(read.data, shape, doing);
  throw await scriptCallError(client, path, read.error, doing, { known: true, ownImplied });
}

/**
 * The error for a call about the owner `handle` that failed: when the service does not know the
 * handle (a 404), a usage error (exit 2) with the handles it most likely meant; otherwise the
 * error as it is.
 *
 * @example
 * const listed = await listScripts({ client, path: { handle: "redcuk" } });
 * // "listing redcuk's scripts: No such handle: redcuk. Did you mean reduck?"
 * if (listed.error) throw await handleCallError(client, "redcuk", listed.error, "listing redcuk's scripts");
 */
export async function handleCallError(client: ReduckClient, handle: string, error: ReduckError, doing?: string): Promise<CliError> {
  if (error.status !== 404) return fromReduckError(error, doing);
  return unknownNameError(error, doing, await unknownHandleHint(client, handle));
}
