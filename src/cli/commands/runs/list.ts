import { Flags } from "@oclif/core";
import { listRuns } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { BaseCommand } from "../../shell/base.js";
import { fetchList, pageFlags, shortTime, type Page } from "../../shell/list-flags.js";
import { renderTable, wideFlag, wideLayout } from "../../shell/output.js";
import { browserLabel, scriptLabel } from "../../run/run-labels.js";
import { resolveAddress } from "../../scripts/own-handle.js";
import { readScriptOrSuggest } from "../../scripts/script-lookup.js";
import { RUN, SCRIPT_ID } from "../../shell/answer-shapes.js";

type Run = components["schemas"]["Run"];

export default class RunsList extends BaseCommand<typeof RunsList> {
  static override summary = "List your runs, newest first";
  static override description =
    'One page at a time (a note on stderr says when there are more); --all fetches every page. With --json, the API\'s page: {"data": [...], "hasNextPage", "totalCount"}.';

  static override examples = [
    { description: "Your latest runs", command: "<%= config.bin %> runs list" },
    { description: "Failed runs of Gmail scripts", command: "<%= config.bin %> runs list --status error --host mail.google.com" },
    { description: "The runs of one script (one of your own, here)", command: "<%= config.bin %> runs list --script example.com/get_title" },
    { description: "Every run, as JSON", command: "<%= config.bin %> runs list --all --json" },
  ];

  static override flags = {
    status: Flags.string({ description: "Only runs in this state.", options: ["queued", "running", "success", "error", "cancelled"] }),
    host: Flags.string({ description: "Only runs of scripts for this site." }),
    script: Flags.string({ description: "Only runs of this script: [handle/]host/slug.", helpValue: "ADDRESS" }),
    ...pageFlags,
    ...wideFlag,
  };

  public async run(): Promise<Page<Run>> {
    const { status, host } = this.flags;
    const client = await this.client();
    const script = this.flags.script ? await readScriptOrSuggest(client, await resolveAddress(client, this.flags.script), undefined, SCRIPT_ID) : undefined;
    const query = { ...(status ? { status: status as Run["status"] } : {}), ...(host ? { host } : {}), ...(script ? { script_id: script.id } : {}) };
    const { items, page, note } = await fetchList(listRuns, { client, query }, this.flags, "listing runs", undefined, RUN);
    if (this.jsonEnabled()) return page;
    if (items.length === 0) {
      this.note("No runs match.");
      return page;
    }
    this.log(
      renderTable(
        items,
        [
          { header: "run id", get: (r) => r.id, keep: true },
          { header: "status", get: (r) => r.status },
          { header: "script", get: scriptLabel, keep: true },
          { header: "browser", get: (r) => browserLabel(r.browser), drop: 2 },
          { header: "started", get: (r) => shortTime(r.started_at), keep: true, drop: 1 },
        ],
        this.flags.wide ? wideLayout() : undefined,
      ),
    );
    if (note) this.note(note);
    return page;
  }
}
