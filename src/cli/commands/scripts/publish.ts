import { Args } from "@oclif/core";
import { publishScript } from "../../../generated/operations.js";
import { formatAddress } from "../../address.js";
import { BaseCommand } from "../../base.js";
import { resolveAddress } from "../../own-handle.js";

export default class ScriptsPublish extends BaseCommand<typeof ScriptsPublish> {
  static override summary = "Make a script public: anyone can read and run it";
  static override description = "It needs a promoted (current) version, and cannot be archived.";

  static override examples = [
    { description: "Publish one of your scripts", command: "<%= config.bin %> scripts publish example.com/get_title" },
    { description: "The updated record", command: "<%= config.bin %> scripts publish example.com/get_title --json" },
  ];

  static override args = {
    address: Args.string({ description: "Script address: [handle/]host/slug.", required: true }),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const script = this.unwrap(await publishScript({ client, path }), `publishing ${address}`);
    this.log(`${address} is now public.`);
    return script;
  }
}
