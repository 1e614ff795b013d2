import { Args } from "@oclif/core";
import { deleteDraftScriptVersion } from "../../../../generated/operations.js";
import { formatAddress } from "../../../address.js";
import { BaseCommand } from "../../../base.js";
import { resolveAddress } from "../../../own-handle.js";

export default class VersionsDelete extends BaseCommand<typeof VersionsDelete> {
  static override summary = "Discard a draft version";
  static override description = "Only drafts can be deleted; promoted versions stay, so any of them can be promoted again.";

  static override examples = [
    { description: "Throw a draft away", command: "<%= config.bin %> scripts versions delete example.com/get_title 3f0c2a1e-0000-4000-8000-000000000000" },
  ];

  static override args = {
    address: Args.string({ description: "Script address: [handle/]host/slug.", required: true }),
    version_id: Args.string({ description: "Id of the draft version.", required: true }),
  };

  public async run(): Promise<{ address: string; versionId: string; deleted: true }> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const versionId = this.args.version_id;
    this.unwrap(await deleteDraftScriptVersion({ client, path: { ...path, versionId } }), `deleting ${address} version ${versionId}`);
    this.log(`Deleted draft ${versionId} of ${address}`);
    return { address, versionId, deleted: true };
  }
}
