/**
 * An address without a handle (`example.com/get_title`) names one of the caller's own
 * scripts: `@username`, which only the service knows. One lookup per client.
 */
import type { ReduckClient } from "../../core/client.js";
import { getMe } from "../../generated/operations.js";
import { bareSlugHint } from "../../core/words/nearby-scripts.js";
import { parseAddress, UnreadableAddress, type ScriptAddress } from "../shell/address.js";
import { CliError, fromReduckError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { checkAnswer } from "../shell/answer-check.js";
import { OWN_HANDLE } from "../shell/answer-shapes.js";

const handles = new WeakMap<ReduckClient, Promise<string>>();

/**
 * The caller's own handle, `@username`, from `getMe` (asked once per client).
 *
 * @example
 * const handle = await ownHandle(client); // "@demo"
 */
export function ownHandle(client: ReduckClient): Promise<string> {
  let handle = handles.get(client);
  if (!handle) {
    handle = (async () => {
      const me = await getMe({ client });
      if (me.error) throw fromReduckError(me.error, "finding your handle");
      checkAnswer(me.data, OWN_HANDLE, "finding your handle");
      if (!me.data.handle) {
        throw new CliError("your account has no username yet, so it has no scripts of its own: give the handle in the address", ExitCode.USAGE);
      }
      return me.data.handle;
    })();
    handles.set(client, handle);
  }
  return handle;
}

/** A script's path parameters, with the handle always filled in. */
export interface ScriptPath {
  handle: string;
  host: string;
  slug: string;
}

/**
 * Parses `[handle/]host/slug` (a usage error when malformed; for a bare slug such as
 * `send_email`, with the addresses of the scripts of that slug) and fills in your own handle
 * when the address names none.
 *
 * @example
 * const path = await resolveAddress(client, "example.com/get_title"); // { handle: "@demo", ... }
 * await getScript({ client, path });
 */
export async function resolveAddress(client: ReduckClient, address: string | ScriptAddress): Promise<ScriptPath> {
  let parsed: ScriptAddress;
  try {
    parsed = typeof address === "string" ? parseAddress(address) : address;
  } catch (err) {
    throw await withBareSlugHint(err, client);
  }
  return { handle: parsed.handle ?? (await ownHandle(client)), host: parsed.host, slug: parsed.slug };
}

/**
 * A bare slug given for an address (`send_email`) fails with the addresses of the scripts that
 * have that slug (`did you mean reduck/mail.google.com/send_email?`); any other error, or a
 * search that finds nothing or cannot be made, comes back as it was.
 *
 * @example
 * try { steps = groupSteps(argv); } catch (err) { throw await withBareSlugHint(err, () => this.client()); }
 */
export async function withBareSlugHint(err: unknown, client: ReduckClient | (() => Promise<ReduckClient>)): Promise<unknown> {
  const slug = err instanceof UnreadableAddress ? err.bareSlug : undefined;
  if (!slug || !(err instanceof UnreadableAddress)) return err;
  const hint = await (typeof client === "function" ? client() : Promise.resolve(client)).then(
    (c) => bareSlugHint(c, slug),
    () => undefined,
  );
  return hint ? new CliError(`${err.message}. ${hint}`, err.exitCode, err.detail) : err;
}
