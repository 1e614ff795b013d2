import { Flags } from "@oclif/core";
import { transferScript } from "../../../generated/operations.js";
import { formatAddress, addressArg } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { resolveAddress } from "../../scripts/own-handle.js";
import { confirmOrCancel, refuseUnconfirmed, yesFlag } from "../../shell/confirm.js";
import { unwrapScript } from "../../scripts/script-lookup.js";

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
    const moved = await unwrapScript(
      client,
      await transferScript({ client, path, body: { target: this.flags.to } }),
      path,
      `transferring ${address} to ${this.flags.to}`,
    );
    const newAddress = formatAddress(moved);
    const result = { ...moved, address: newAddress, from: address };
    this.log(`Moved ${address} to ${moved.handle}: it is now ${newAddress}`);
    return result;
  }
}
