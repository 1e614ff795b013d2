import { Flags } from "@oclif/core";
import { patchScript } from "../../../generated/operations.js";
import { formatAddress, addressArg } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import { yesNo } from "../../shell/list-flags.js";
import { renderFields } from "../../shell/output.js";
import { resolveAddress } from "../../scripts/own-handle.js";
import { unwrapScript } from "../../scripts/script-lookup.js";

export default class ScriptsUpdate extends BaseCommand<typeof ScriptsUpdate> {
  static override summary = "Change a script's name, description or human-required flag";
  static override description = "Code and contract live in versions: change them with `reduck scripts versions create`.";

  static override examples = [
    {
      description: "Rename and describe",
      command: '<%= config.bin %> scripts update example.com/get_title --name "Get page title" --description "Returns the <title> of a page"',
    },
    { description: "Say a person must be at the browser", command: "<%= config.bin %> scripts update acme/crm.acme.test/export_contacts --human-required" },
  ];

  static override args = {
    address: addressArg(),
  };

  static override flags = {
    name: Flags.string({ description: "New display name." }),
    description: Flags.string({ description: "New description." }),
    "human-required": Flags.boolean({ description: "The script needs a person at the browser (--no-human-required: it does not).", allowNo: true }),
  };

  public async run(): Promise<unknown> {
    const { name, description } = this.flags;
    const humanRequired = this.flags["human-required"];
    const body = {
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(humanRequired !== undefined ? { human_required: humanRequired } : {}),
    };
    if (Object.keys(body).length === 0) throw usageError("nothing to change: give --name, --description or --human-required/--no-human-required");
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const script = await unwrapScript(client, await patchScript({ client, path, body }), path, `updating ${address}`);
    if (this.jsonEnabled()) return script;
    this.log(
      renderFields([
        ["Updated", address],
        ["Name", script.name],
        ["Description", script.description],
        ["Human required", yesNo(script.human_required)],
      ]),
    );
    return script;
  }
}
