import { Args } from "@oclif/core";
import { readAddress, type ScriptAddress } from "../../core/address.js";
import { usageError } from "./errors.js";

export { formatAddress, type ScriptAddress } from "../../core/address.js";

/** The address, or a usage error (exit 2) in the words core/address.ts gives. */
export function parseAddress(text: string): ScriptAddress {
  const address = readAddress(text);
  if ("problem" in address) throw usageError(address.problem);
  return address;
}

/** The positional ADDRESS argument of the commands that act on one script. */
export function addressArg() {
  return Args.string({ description: "Script address: [handle/]host/slug.", required: true });
}
