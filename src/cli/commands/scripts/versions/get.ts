import { Flags } from "@oclif/core";
import { resolveScriptVersion, versionArg } from "../../../scripts/versions.js";
import { VERSION } from "../../../shell/answer-shapes.js";
import { getScriptVersion } from "../../../../generated/operations.js";
import { addressArg } from "../../../shell/address.js";
import { BaseCommand } from "../../../shell/base.js";
import { renderVersion } from "../../../scripts/contract.js";
import { unwrapScript } from "../../../scripts/script-lookup.js";

export default class VersionsGet extends BaseCommand<typeof VersionsGet> {
  static override summary = "Show one version of a script: its note, contract and (with --code) its code";
  static override description =
    "The same view as `reduck scripts get ADDRESS --version VERSION`. VERSION is the number `reduck scripts versions list` shows, or the version's id. The service withholds the code of official catalogue scripts from anyone who is not a member of the owning project.";

  static override examples = [
    { description: "Version 1, with its code", command: "<%= config.bin %> scripts versions get example.com/get_title 1 --code" },
    { description: "The full record", command: "<%= config.bin %> scripts versions get example.com/get_title 00000000-0000-4000-8004-000000000002 --json" },
  ];

  static override args = {
    address: addressArg(),
    version: versionArg("The version"),
  };

  static override flags = {
    code: Flags.boolean({ description: "Also print the version's code." }),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const { path, address, versionId } = await resolveScriptVersion(client, this.args.address, this.args.version);
    const version = await unwrapScript(
      client,
      await getScriptVersion({ client, path: { ...path, versionId } }),
      path,
      `reading ${address} version ${this.args.version}`,
      VERSION,
    );
    if (!this.jsonEnabled()) this.log(renderVersion(version, address, { code: this.flags.code }));
    return version;
  }
}
