/**
 * An address without a handle (`example.com/get_title`) names one of the caller's own
 * scripts: `@username`, which only the service knows. One lookup per client.
 */
import type { ReduckClient } from "../../client.js";
import { getMe } from "../../generated/operations.js";
import { parseAddress, type ScriptAddress } from "../shell/address.js";
import { CliError, fromReduckError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";

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
 * Parses `[handle/]host/slug` (a usage error when malformed) and fills in your own handle
 * when the address names none.
 *
 * @example
 * const path = await resolveAddress(client, "example.com/get_title"); // { handle: "@demo", ... }
 * await getScript({ client, path });
 */
export async function resolveAddress(client: ReduckClient, address: string | ScriptAddress): Promise<ScriptPath> {
  const parsed = typeof address === "string" ? parseAddress(address) : address;
  return { handle: parsed.handle ?? (await ownHandle(client)), host: parsed.host, slug: parsed.slug };
}
