import { Flags } from "@oclif/core";
import { createDraftScriptVersion } from "../../../../generated/operations.js";
import { VERSION } from "../../../shell/answer-shapes.js";
import { formatAddress, addressArg } from "../../../shell/address.js";
import { BaseCommand } from "../../../shell/base.js";
import { renderDiff } from "../../../scripts/contract.js";
import { resolveAddress } from "../../../scripts/own-handle.js";
import { resolveVersion } from "../../../scripts/versions.js";
import { versionFields, versionFileFlags } from "../../../scripts/script-files.js";
import { unwrapScript } from "../../../scripts/script-lookup.js";

export default class VersionsCreate extends BaseCommand<typeof VersionsCreate> {
  static override summary = "Add a draft version to a script";
  static override description =
    `The draft starts as a copy of its parent (the current version, or --parent) and takes whatever you give: code (--source), contract (--input-schema, --output-schema, --side-effects, --logged-in). The script keeps running its current version until the draft is promoted.

Try a draft with \`reduck run --version VERSION --script ADDRESS ...\`, then make it current with \`reduck scripts versions promote ADDRESS VERSION\` (VERSION: its number or id).`;

  static override examples = [
    {
      description: "New code for one of your scripts",
      command: '<%= config.bin %> scripts versions create example.com/get_title --note "Wait for the page to load" --source ./get_title.ts',
    },
    {
      description: "Change the contract only",
      command:
        '<%= config.bin %> scripts versions create acme/crm.acme.test/export_contacts --note "Take a limit" --input-schema ./input.json --side-effects none',
    },
  ];

  static override args = {
    address: addressArg(),
  };

  static override flags = {
    note: Flags.string({ description: "Why this version exists (shown in the version list).", required: true }),
    ...versionFileFlags,
    "side-effects": Flags.string({ description: "none: it only reads; write: it acts on the site.", options: ["none", "write"] }),
    "logged-in": Flags.boolean({ description: "It needs the user signed in to the site (--no-logged-in: it does not).", allowNo: true }),
    parent: Flags.string({ description: "Version to build on, by number or id (default: the current version).", helpValue: "VERSION" }),
  };

  public async run(): Promise<unknown> {
    const flags = this.flags;
    const files = await versionFields(flags);
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const body = {
      note: flags.note,
      ...files,
      ...(flags["side-effects"] ? { side_effects: flags["side-effects"] as "none" | "write" } : {}),
      ...(flags["logged-in"] !== undefined ? { logged_in: flags["logged-in"] } : {}),
      ...(flags.parent ? { parent_version_id: await resolveVersion(client, path, flags.parent) } : {}),
    };
    const draft = await unwrapScript(client, await createDraftScriptVersion({ client, path, body }), path, `adding a draft to ${address}`, VERSION);
    if (this.jsonEnabled()) return draft;
    this.log(`Created draft version ${draft.version_number} of ${address}: ${draft.id}${renderDiff(draft.diff)}`);
    this.note(
      `Try it with \`reduck run --version ${draft.version_number} --script ${address} ...\`; make it current with \`reduck scripts versions promote ${address} ${draft.version_number}\`.`,
    );
    return draft;
  }
}
