import { Args, Flags } from "@oclif/core";
import { listAllScripts, listScripts } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { handleCallError } from "../../scripts/script-lookup.js";
import { BaseCommand } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import { fetchList, pageFlags, type Page } from "../../shell/list-flags.js";
import { renderTable, wideFlag, wideLayout } from "../../shell/output.js";
import { SCRIPT_SUMMARY } from "../../shell/answer-shapes.js";

type ScriptSummary = components["schemas"]["ScriptSummary"];
/** A listed script with the address that names it everywhere else (`reduck run --script ADDRESS`). */
type ListedScript = ScriptSummary & { address: string };

function withAddress(s: ScriptSummary): ListedScript {
  return { address: `${s.author.handle}/${s.host}/${s.slug}`, ...s };
}

export default class ScriptsList extends BaseCommand<typeof ScriptsList> {
  static override summary = "List scripts: your own, your projects' and the official catalogue, or one owner's";
  static override description =
    `Without HANDLE: your own scripts, those of your projects and the official catalogue (handle "reduck"); archived scripts are left out unless --archived. With HANDLE (@username or a project handle): that owner's scripts, archived ones included unless --no-archived; other owners show only their public scripts.

\`reduck list\` is the same command, under the official CLI's name for it.

One page at a time (a note on stderr says when there are more); --all fetches every page. With --json, the API's page: {"data": [...], "hasNextPage", "totalCount"}, each script with its "address".`;

  // The official CLI's word: `reduck list [owner] [-q QUERY] [--host HOST]`.
  static override aliases = ["list"];

  static override examples = [
    { description: "Everything you can use", command: "<%= config.bin %> scripts list" },
    { description: "Ranked search", command: "<%= config.bin %> scripts list --query linkedin" },
    { description: "The same, in the official CLI's words", command: "<%= config.bin %> list -q linkedin" },
    { description: "One owner, one site", command: "<%= config.bin %> scripts list reduck --host mail.google.com" },
    { description: "All your public scripts, as JSON", command: "<%= config.bin %> scripts list @demo --visibility public --all --json" },
  ];

  static override args = {
    handle: Args.string({ description: "Owner: @username, or a project handle such as reduck (the official catalogue)." }),
  };

  static override flags = {
    host: Flags.string({ description: "Only scripts for this site (e.g. mail.google.com)." }),
    query: Flags.string({ char: "q", description: "Search words; results are ranked by relevance." }),
    visibility: Flags.string({ description: "Only private or only public scripts.", options: ["private", "public"] }),
    archived: Flags.boolean({ description: "Only archived scripts (--no-archived: only active ones).", allowNo: true }),
    ...pageFlags,
    ...wideFlag,
  };

  public async run(): Promise<Page<ListedScript>> {
    const handle = this.args.handle;
    if (handle !== undefined && (!handle || handle.includes("/"))) {
      throw usageError(`${JSON.stringify(handle)} is not a handle (@username or a project handle); to read one script, use \`reduck scripts get ${handle}\``);
    }
    const { host, query: q, visibility, archived } = this.flags;
    const query = {
      ...(host ? { host } : {}),
      ...(q ? { q } : {}),
      ...(visibility ? { visibility: visibility as "private" | "public" } : {}),
      ...(archived !== undefined ? { archived: archived ? ("true" as const) : ("false" as const) } : {}),
    };
    const client = await this.client();
    const { page, note } = handle
      ? await fetchList(
          listScripts,
          { client, path: { handle }, query },
          this.flags,
          `listing ${handle}'s scripts`,
          (error) => handleCallError(client, handle, error, `listing ${handle}'s scripts`),
          SCRIPT_SUMMARY,
        )
      : await fetchList(listAllScripts, { client, query }, this.flags, "listing scripts", undefined, SCRIPT_SUMMARY);
    const listed = { ...page, data: page.data.map(withAddress) };
    if (this.jsonEnabled()) return listed;

    if (listed.data.length === 0) {
      this.note("No scripts match.");
      return listed;
    }
    this.log(
      renderTable(
        listed.data,
        [
          { header: "address", get: (s) => s.address, keep: true },
          { header: "name", get: (s) => s.name, min: 12 },
          { header: "visibility", get: (s) => (s.archived_at ? `${s.visibility} (archived)` : s.visibility), drop: 2 },
          { header: "side effects", get: (s) => s.current_version?.side_effects ?? "-", drop: 1 },
          { header: "description", get: (s) => s.description, min: 20 },
        ],
        this.flags.wide ? wideLayout() : undefined,
      ),
    );
    if (note) this.note(note);
    return listed;
  }
}
