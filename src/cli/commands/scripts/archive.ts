import { Args } from "@oclif/core";
import { archiveScript } from "../../../generated/operations.js";
import { formatAddress } from "../../address.js";
import { BaseCommand } from "../../base.js";
import { resolveAddress } from "../../own-handle.js";

export default class ScriptsArchive extends BaseCommand<typeof ScriptsArchive> {
  static override summary = "Archive a script";
  static override description = "An archived script drops out of `reduck scripts list` (it stays in its owner's listing), takes no new versions and keeps its host and slug reserved; a public archived script can still be read.";

  static override examples = [
    { description: "Archive a script you no longer use", command: "<%= config.bin %> scripts archive example.com/get_title" },
    { description: "The updated record", command: "<%= config.bin %> scripts archive example.com/get_title --json" },
  ];

  static override args = {
    address: Args.string({ description: "Script address: [handle/]host/slug.", required: true }),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const script = this.unwrap(await archiveScript({ client, path }), `archiving ${address}`);
    this.log(`${address} is archived. Restore it with \`reduck scripts restore ${address}\`.`);
    return script;
  }
}
