import { Flags } from "@oclif/core";
import { patchDraftScriptVersion } from "../../../../generated/operations.js";
import { VERSION } from "../../../shell/answer-shapes.js";
import { addressArg } from "../../../shell/address.js";
import { BaseCommand } from "../../../shell/base.js";
import { renderDiff } from "../../../scripts/contract.js";
import { usageError } from "../../../shell/errors.js";
import { resolveScriptVersion, versionArg } from "../../../scripts/versions.js";
import { versionFields, versionFileFlags } from "../../../scripts/script-files.js";
import { unwrapScript } from "../../../scripts/script-lookup.js";

export default class VersionsUpdate extends BaseCommand<typeof VersionsUpdate> {
  static override summary = "Change a draft version: its code, contract or note";
  static override description = "Only drafts can change; a promoted version is fixed (add a new draft instead).";

  static override examples = [
    {
      description: "Replace the code of draft version 3",
      command: "<%= config.bin %> scripts versions update example.com/get_title 3 --source ./get_title.ts",
    },
    {
      description: "Reword its note and mark it as writing",
      command:
        '<%= config.bin %> scripts versions update example.com/get_title 3f0c2a1e-0000-4000-8000-000000000000 --note "Posts the title" --side-effects write',
    },
  ];

  static override args = {
    address: addressArg(),
    version: versionArg("The draft version"),
  };

  static override flags = {
    note: Flags.string({ description: "New note." }),
    ...versionFileFlags,
    "side-effects": Flags.string({ description: "none: it only reads; write: it acts on the site.", options: ["none", "write"] }),
    "logged-in": Flags.boolean({ description: "It needs the user signed in to the site (--no-logged-in: it does not).", allowNo: true }),
  };

  public async run(): Promise<unknown> {
    const flags = this.flags;
    const body = {
      ...(await versionFields(flags)),
      ...(flags.note !== undefined ? { note: flags.note } : {}),
      ...(flags["side-effects"] ? { side_effects: flags["side-effects"] as "none" | "write" } : {}),
      ...(flags["logged-in"] !== undefined ? { logged_in: flags["logged-in"] } : {}),
    };
    if (Object.keys(body).length === 0) {
      throw usageError("nothing to change: give --note, --source, --input-schema, --output-schema, --side-effects or --logged-in/--no-logged-in");
    }
    const client = await this.client();
    const { path, address, versionId } = await resolveScriptVersion(client, this.args.address, this.args.version);
    const draft = await unwrapScript(
      client,
      await patchDraftScriptVersion({ client, path: { ...path, versionId }, body }),
      path,
      `updating ${address} version ${this.args.version}`,
      VERSION,
    );
    if (this.jsonEnabled()) return draft;
    this.log(`Updated draft version ${draft.version_number} of ${address}: ${draft.id}${renderDiff(draft.diff)}`);
    return draft;
  }
}
