import { Args } from "@oclif/core";
import { restoreScript } from "../../../generated/operations.js";
import { formatAddress } from "../../address.js";
import { BaseCommand } from "../../base.js";
import { resolveAddress } from "../../own-handle.js";

export default class ScriptsRestore extends BaseCommand<typeof ScriptsRestore> {
  static override summary = "Bring an archived script back";
  static override description = "Restoring a script that is not archived changes nothing.";

  static override examples = [
    { description: "Restore an archived script", command: "<%= config.bin %> scripts restore example.com/old_scraper" },
    { description: "The updated record", command: "<%= config.bin %> scripts restore example.com/old_scraper --json" },
  ];

  static override args = {
    address: Args.string({ description: "Script address: [handle/]host/slug.", required: true }),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const script = this.unwrap(await restoreScript({ client, path }), `restoring ${address}`);
    this.log(`${address} is active again.`);
    return script;
  }
}
