import { Flags } from "@oclif/core";
import { getScriptVersion } from "../../../generated/operations.js";
import { formatAddress, addressArg } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { renderScript, renderVersion } from "../../scripts/contract.js";
import { resolveAddress } from "../../scripts/own-handle.js";
import { readScriptOrSuggest } from "../../scripts/script-lookup.js";
import { resolveVersion, versionFlag } from "../../scripts/versions.js";

export default class ScriptsGet extends BaseCommand<typeof ScriptsGet> {
  static override summary = "Show a script's contract: what it takes, what it returns, whether it needs a login";
  static override description =
    `ADDRESS is [handle/]host/slug; without a handle, one of your own scripts. Inputs are listed with their types; file inputs are listed apart, with how to pass them to \`reduck run\` (file:NAME=PATH).

--code adds the source. The service withholds the source of official catalogue scripts from anyone who is not a member of the owning project; the output says so.`;

  static override examples = [
    { description: "What the official send_email script takes", command: "<%= config.bin %> scripts get reduck/mail.google.com/send_email" },
    { description: "One of your own scripts, with its code", command: "<%= config.bin %> scripts get example.com/get_title --code" },
    { description: "An earlier or draft version, by its number", command: "<%= config.bin %> scripts get example.com/get_title --version 1 --code" },
    { description: "The full record", command: "<%= config.bin %> scripts get reduck/docusign.com/upload_document --json" },
  ];

  static override args = {
    address: addressArg(),
  };

  static override flags = {
    code: Flags.boolean({ description: "Also print the script's source." }),
    version: versionFlag("Show this version instead of the current one."),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    if (this.flags.version) {
      const versionId = await resolveVersion(client, path, this.flags.version);
      const version = this.unwrap(await getScriptVersion({ client, path: { ...path, versionId } }), `reading ${address} version ${this.flags.version}`);
      if (!this.jsonEnabled()) this.log(renderVersion(version, address, { code: this.flags.code }));
      return version;
    }
    const script = await readScriptOrSuggest(client, path);
    if (!this.jsonEnabled()) this.log(renderScript(script, address, { code: this.flags.code }));
    return script;
  }
}
