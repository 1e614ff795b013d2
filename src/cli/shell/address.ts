import { Args } from "@oclif/core";
import { readAddress, type ScriptAddress } from "../../core/words/address.js";
import { CliError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

export { formatAddress, type ScriptAddress } from "../../core/words/address.js";

/** An address that cannot be read (exit 2); `text` is what was given, for a did-you-mean once a client is at hand. */
export class UnreadableAddress extends CliError {
  constructor(
    message: string,
    readonly text: string,
  ) {
    super(message, ExitCode.USAGE);
  }

  /** The text is a bare slug (`send_email`): the service can say which scripts have it. */
  get bareSlug(): string | undefined {
    return /^[a-z0-9_-]{1,64}$/.test(this.text) ? this.text : undefined;
  }
}

/** The address, or a usage error (exit 2) in the words core/words/address.ts gives. */
export function parseAddress(text: string): ScriptAddress {
  const address = readAddress(text);
  if ("problem" in address) throw new UnreadableAddress(address.problem, text);
  return address;
}

/** The positional ADDRESS argument of the commands that act on one script. */
export function addressArg() {
  return Args.string({ description: "Script address: [handle/]host/slug.", required: true });
}
