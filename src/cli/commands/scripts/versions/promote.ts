import { promoteScriptVersion } from "../../../../generated/operations.js";
import { addressArg } from "../../../shell/address.js";
import { VERSION } from "../../../shell/answer-shapes.js";
import { BaseCommand } from "../../../shell/base.js";
import { resolveScriptVersion, versionArg } from "../../../scripts/versions.js";
import { unwrapScript } from "../../../scripts/script-lookup.js";

export default class VersionsPromote extends BaseCommand<typeof VersionsPromote> {
  static override summary = "Make a version the one the script runs (also how to roll back)";
  static override description =
    "Promoting a draft makes it current and it stops being a draft. Promoting an earlier promoted version rolls the script back to it. Runs without --version use the current version from then on. VERSION is the number `reduck scripts versions list` shows, or the version's id.";

  static override examples = [
    { description: "Ship draft version 3", command: "<%= config.bin %> scripts versions promote example.com/get_title 3" },
    { description: "Roll back to version 1", command: "<%= config.bin %> scripts versions promote example.com/get_title 1" },
    { description: "By id", command: "<%= config.bin %> scripts versions promote example.com/get_title 00000000-0000-4000-8004-000000000001" },
  ];

  static override args = {
    address: addressArg(),
    version: versionArg("The version to make current"),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const { path, address, versionId } = await resolveScriptVersion(client, this.args.address, this.args.version);
    const version = await unwrapScript(
      client,
      await promoteScriptVersion({ client, path: { ...path, versionId } }),
      path,
      `promoting ${address} version ${this.args.version}`,
      VERSION,
    );
    this.log(`Version ${version.version_number} (${version.id}) is now the current version of ${address}.`);
    return version;
  }
}
