import { Args } from "@oclif/core";
import { unpublishScript } from "../../../generated/operations.js";
import { formatAddress } from "../../address.js";
import { BaseCommand } from "../../base.js";
import { resolveAddress } from "../../own-handle.js";

export default class ScriptsUnpublish extends BaseCommand<typeof ScriptsUnpublish> {
  static override summary = "Make a script private again";
  static override description = "Works on archived scripts too.";

  static override examples = [
    { description: "Take one of your scripts private", command: "<%= config.bin %> scripts unpublish news.ycombinator.com/top_stories" },
    { description: "The updated record", command: "<%= config.bin %> scripts unpublish news.ycombinator.com/top_stories --json" },
  ];

  static override args = {
    address: Args.string({ description: "Script address: [handle/]host/slug.", required: true }),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const script = this.unwrap(await unpublishScript({ client, path }), `unpublishing ${address}`);
    this.log(`${address} is now private: only you (or the project's members) can read and run it.`);
    return script;
  }
}
