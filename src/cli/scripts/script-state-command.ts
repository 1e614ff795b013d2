import type { ReduckClient } from "../../core/client.js";
import type { ReduckError } from "../../core/errors.js";
import { formatAddress, addressArg } from "../shell/address.js";
import { BaseCommand } from "../shell/base.js";
import { confirmOrCancel, refuseUnconfirmed } from "../shell/confirm.js";
import { resolveAddress, type ScriptPath } from "./own-handle.js";
import { unwrapScript } from "./script-lookup.js";

type Change = (options: { client: ReduckClient; path: ScriptPath }) => Promise<{ data: unknown; error: undefined } | { data: undefined; error: ReduckError }>;

/**
 * publish, unpublish, archive, restore: one address in, one state change, the updated record
 * out. Each command names its library function and its two messages.
 */
export abstract class ScriptStateCommand extends BaseCommand<typeof ScriptStateCommand> {
  static override args = {
    address: addressArg(),
  };

  /** The library function that makes the change. */
  protected abstract change: Change;
  /** What is happening, for an error: "publishing". */
  protected abstract doing: string;
  /** What happened, for people. */
  protected abstract done(address: string): string;
  /** For a change worth a confirmation: the question to ask (the command then takes --yes). */
  protected question?: (address: string) => string;

  public async run(): Promise<unknown> {
    const yes = (this.flags as { yes?: boolean }).yes;
    if (this.question) refuseUnconfirmed(yes, this.doing);
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    if (this.question) await confirmOrCancel(yes, this.question(address));
    const script = await unwrapScript(client, await this.change({ client, path }), path, `${this.doing} ${address}`);
    this.log(this.done(address));
    return script;
  }
}
