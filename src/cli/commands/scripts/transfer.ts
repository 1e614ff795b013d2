import { Flags } from "@oclif/core";
import { listScripts, transferScript } from "../../../generated/operations.js";
import { TRANSFERRED } from "../../shell/answer-shapes.js";
import { formatAddress, addressArg } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { resolveAddress } from "../../scripts/own-handle.js";
import { confirmOrCancel, refuseUnconfirmed, yesFlag } from "../../shell/confirm.js";
import { handleCallError, unwrapScript } from "../../scripts/script-lookup.js";

export default class ScriptsTransfer extends BaseCommand<typeof ScriptsTransfer> {
  static override summary = "Move a script to your personal scope or to a project";
  static override description =
    "The script keeps its host, slug, versions and runs; its address changes to the new owner's handle. `reduck scripts targets ADDRESS` lists where it can go. On a terminal it asks first; --yes skips the question, and is needed where there is no terminal.";

  static override examples = [
    { description: "Move one of your scripts into a project", command: "<%= config.bin %> scripts transfer example.com/get_title --to acme" },
    {
      description: "Bring a project's script back to you, without asking",
      command: "<%= config.bin %> scripts transfer acme/crm.acme.test/export_contacts --to @demo --yes",
    },
  ];

  static override args = {
    address: addressArg(),
  };

  static override flags = {
    to: Flags.string({ description: "Destination: a project handle, or your own @username.", required: true }),
    ...yesFlag,
  };

  public async run(): Promise<unknown> {
    refuseUnconfirmed(this.flags.yes, "transferring a script");
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    await confirmOrCancel(this.flags.yes, `Move ${address} to ${this.flags.to}? Its address becomes ${formatAddress({ ...path, handle: this.flags.to })}.`);
    const to = this.flags.to;
    const doing = `transferring ${address} to ${to}`;
    const sent = await transferScript({ client, path, body: { target: to } });
    // The service refuses a destination it does not know as it refuses one you may not use (403):
    // a handle that names no owner at all is the user's typo to fix (exit 2, with the one meant).
    if (sent.error?.status === 403) {
      const owner = await listScripts({ client, path: { handle: to }, query: { pageSize: 1 } });
      if (owner.error?.status === 404) throw await handleCallError(client, to, owner.error, doing);
    }
    const moved = await unwrapScript(client, sent, path, doing, TRANSFERRED);
    const newAddress = formatAddress(moved);
    const result = { ...moved, address: newAddress, from: address };
    this.log(`Moved ${address} to ${moved.handle}: it is now ${newAddress}`);
    return result;
  }
}
