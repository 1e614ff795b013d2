import { deleteDraftScriptVersion } from "../../../../generated/operations.js";
import { addressArg } from "../../../shell/address.js";
import { BaseCommand } from "../../../shell/base.js";
import { confirmOrCancel, refuseUnconfirmed, yesFlag } from "../../../shell/confirm.js";
import { resolveScriptVersion, versionArg } from "../../../scripts/versions.js";
import { unwrapScript } from "../../../scripts/script-lookup.js";

export default class VersionsDelete extends BaseCommand<typeof VersionsDelete> {
  static override summary = "Discard a draft version";
  static override description =
    "Only drafts can be deleted; promoted versions stay, so any of them can be promoted again. VERSION is the number `reduck scripts versions list` shows, or the version's id. On a terminal it asks first; --yes skips the question, and is needed where there is no terminal.";

  static override examples = [
    { description: "Throw draft version 3 away (it asks first)", command: "<%= config.bin %> scripts versions delete example.com/get_title 3" },
    {
      description: "By id, without asking",
      command: "<%= config.bin %> scripts versions delete example.com/get_title 3f0c2a1e-0000-4000-8000-000000000000 --yes",
    },
  ];

  static override args = {
    address: addressArg(),
    version: versionArg("The draft version"),
  };

  static override flags = { ...yesFlag };

  public async run(): Promise<{ address: string; versionId: string; deleted: true }> {
    refuseUnconfirmed(this.flags.yes, "deleting a draft version");
    const client = await this.client();
    const { path, address, versionId } = await resolveScriptVersion(client, this.args.address, this.args.version);
    await confirmOrCancel(this.flags.yes, `Delete draft version ${this.args.version} of ${address}? This cannot be undone.`);
    await unwrapScript(
      client,
      await deleteDraftScriptVersion({ client, path: { ...path, versionId } }),
      path,
      `deleting ${address} version ${this.args.version}`,
    );
    this.log(`Deleted draft ${versionId} of ${address}`);
    return { address, versionId, deleted: true };
  }
}
