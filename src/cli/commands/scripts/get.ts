import { Flags } from "@oclif/core";
import { getScriptVersion } from "../../../generated/operations.js";
import { formatAddress, addressArg } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { renderScript, renderVersion } from "../../scripts/contract.js";
import { resolveAddress } from "../../scripts/own-handle.js";
import { readScriptOrSuggest, unwrapScript } from "../../scripts/script-lookup.js";
import { chosenVersion, resolveVersion, versionFlags } from "../../scripts/versions.js";
import { VERSION } from "../../shell/answer-shapes.js";

export default class ScriptsGet extends BaseCommand<typeof ScriptsGet> {
  static override summary = "Show a script's contract: what it takes, what it returns, whether it needs a login";
  static override description =
    `ADDRESS is [handle/]host/slug; without a handle, one of your own scripts. Inputs are listed with their types; file inputs are listed apart, with how to pass them to \`reduck run\` (file:NAME=PATH).

\`reduck read\` is the same command, under the official CLI's name for it (with --version-id for --version).

--code adds the source. The service withholds the source of official catalogue scripts from anyone who is not a member of the owning project; the output says so.`;

  // The official CLI's word: `reduck read ADDRESS [--code] [--version-id ID]`.
  static override aliases = ["read"];

  static override examples = [
    { description: "What the official send_email script takes", command: "<%= config.bin %> scripts get reduck/mail.google.com/send_email" },
    { description: "One of your own scripts, with its code", command: "<%= config.bin %> scripts get example.com/get_title --code" },
    { description: "An earlier or draft version, by its number", command: "<%= config.bin %> scripts get example.com/get_title --version 1 --code" },
    { description: "The same, in the official CLI's words", command: "<%= config.bin %> read example.com/get_title --code" },
    { description: "The full record", command: "<%= config.bin %> scripts get reduck/docusign.com/upload_document --json" },
  ];

  static override args = {
    address: addressArg(),
  };

  static override flags = {
    code: Flags.boolean({ description: "Also print the script's source." }),
    ...versionFlags("Show this version instead of the current one."),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const chosen = chosenVersion(this.flags);
    if (chosen) {
      const versionId = await resolveVersion(client, path, chosen);
      const version = await unwrapScript(
        client,
        await getScriptVersion({ client, path: { ...path, versionId } }),
        path,
        `reading ${address} version ${chosen}`,
        VERSION,
      );
      if (!this.jsonEnabled()) this.log(renderVersion(version, address, { code: this.flags.code }));
      return version;
    }
    const script = await readScriptOrSuggest(client, path);
    if (!this.jsonEnabled()) this.log(renderScript(script, address, { code: this.flags.code }));
    return script;
  }
}
