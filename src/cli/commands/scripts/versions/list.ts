import { Flags } from "@oclif/core";
import { getScript, listScriptVersions } from "../../../../generated/operations.js";
import { SCRIPT, VERSION_SUMMARY } from "../../../shell/answer-shapes.js";
import type { components } from "../../../../generated/schema.js";
import { formatAddress, addressArg } from "../../../shell/address.js";
import { BaseCommand } from "../../../shell/base.js";
import { fetchList, pageFlags, shortTime, type Page } from "../../../shell/list-flags.js";
import { renderTable, wideFlag, wideLayout } from "../../../shell/output.js";
import { resolveAddress } from "../../../scripts/own-handle.js";
import { scriptCallError } from "../../../scripts/script-lookup.js";
import type { ReduckError } from "../../../../core/errors.js";

type VersionSummary = components["schemas"]["ScriptVersionSummary"];

export default class VersionsList extends BaseCommand<typeof VersionsList> {
  static override summary = "List a script's versions, newest first";
  static override description =
    'STATUS is current (the version that runs), draft (not promoted yet) or promoted (an earlier current version, which `reduck scripts versions promote` can bring back). Drafts are shown only to those who may edit the script. Wherever a version is asked for, its VERSION number here will do as well as its id. With --json, the API\'s page: {"data": [...], "hasNextPage", "totalCount"}.';

  static override examples = [
    { description: "Every version of one of your scripts", command: "<%= config.bin %> scripts versions list example.com/get_title" },
    { description: "Only drafts", command: "<%= config.bin %> scripts versions list example.com/get_title --draft" },
    { description: "All pages, as JSON", command: "<%= config.bin %> scripts versions list reduck/mail.google.com/send_email --all --json" },
  ];

  static override args = {
    address: addressArg(),
  };

  static override flags = {
    draft: Flags.boolean({ description: "Only drafts.", exclusive: ["promoted"] }),
    promoted: Flags.boolean({ description: "Only promoted versions.", exclusive: ["draft"] }),
    ...pageFlags,
    ...wideFlag,
  };

  public async run(): Promise<Page<VersionSummary>> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const query = this.flags.draft ? { draft: "true" as const } : this.flags.promoted ? { draft: "false" as const } : {};
    const doing = `listing the versions of ${address}`;
    // An address the service does not know: exit 2, with the scripts it most likely meant.
    const fail = (error: ReduckError) => scriptCallError(client, path, error, doing);
    if (this.jsonEnabled()) return (await fetchList(listScriptVersions, { client, path, query }, this.flags, doing, fail, VERSION_SUMMARY)).page;

    // The versions do not say which one is current; the script does.
    const [{ items, page, note }, script] = await Promise.all([
      fetchList(listScriptVersions, { client, path, query }, this.flags, doing, fail, VERSION_SUMMARY),
      getScript({ client, path }),
    ]);
    const currentId = this.unwrap(script, `reading ${address}`, SCRIPT).current_version_id;
    if (items.length === 0) {
      this.note(`${address} has no ${this.flags.draft ? "drafts" : this.flags.promoted ? "promoted versions" : "versions"} you can see.`);
      return page;
    }
    this.log(
      renderTable(
        items,
        [
          { header: "version", get: (v) => v.version_number, keep: true },
          { header: "id", get: (v) => v.id, keep: true },
          { header: "status", get: (v) => (v.draft ? "draft" : v.id === currentId ? "current" : "promoted"), keep: true },
          { header: "side effects", get: (v) => v.side_effects, drop: 2 },
          { header: "created", get: (v) => shortTime(v.created_at), keep: true, drop: 1 },
          { header: "by", get: (v) => v.created_by?.handle ?? "-", drop: 3 },
          { header: "note", get: (v) => (v.note === undefined ? "(hidden)" : v.note || "-"), min: 16 },
        ],
        this.flags.wide ? wideLayout() : undefined,
      ),
    );
    if (note) this.note(note);
    return page;
  }
}
