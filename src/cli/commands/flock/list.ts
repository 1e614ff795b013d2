import { Args } from "@oclif/core";
import { listAllApps, listApps } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { scopeCallError } from "../../flock/flock.js";
import { BaseCommand } from "../../shell/base.js";
import { fetchList, pageFlags, shortTime, type Page } from "../../shell/list-flags.js";
import { renderTable } from "../../shell/output.js";

type AppSummary = components["schemas"]["AppSummary"];

export default class FlockList extends BaseCommand<typeof FlockList> {
  static override hidden = true;
  static override summary = "List the apps you can open: your own and your projects' (early access)";
  static override description =
    `Without HANDLE: every installed app you can reach, newest first. With HANDLE (@username or a project): that scope's apps. Apps are never public.

With --json, the API's page: {"data": [...], "hasNextPage", "totalCount"}.`;

  static override examples = [
    { description: "Every app you can open", command: "<%= config.bin %> flock list" },
    { description: "One project's apps, as JSON", command: "<%= config.bin %> flock list acme --json" },
  ];

  static override args = {
    handle: Args.string({ description: "A scope: @username or a project handle." }),
  };

  static override flags = { ...pageFlags };

  public async run(): Promise<Page<AppSummary>> {
    const client = await this.client();
    const handle = this.args.handle;
    const { page, note } = handle
      ? await fetchList(listApps, { client, path: { handle } }, this.flags, `listing ${handle}'s apps`, (error) =>
          scopeCallError(client, handle, error, `listing ${handle}'s apps`),
        )
      : await fetchList(listAllApps, { client }, this.flags, "listing apps");
    // The description types an app's id and handle as plain strings: each is shown as text (the
    // table escapes what would act on a terminal) and checked only where a later command uses it.
    if (this.jsonEnabled()) return page;
    if (!page.data.length) {
      this.note("No apps yet: `reduck flock install HANDLE/SLUG` installs one from an image.");
      return page;
    }
    this.log(
      renderTable(page.data, [
        { header: "app id", get: (a) => a.id, keep: true },
        { header: "name", get: (a) => a.name, min: 10 },
        { header: "scope", get: (a) => a.owner.handle },
        { header: "image", get: (a) => (a.image ? `${a.image.handle}/${a.image.slug}` : "-") },
        { header: "release", get: (a) => (a.current_release === null ? "-" : String(a.current_release)) },
        { header: "installed", get: (a) => shortTime(a.created_at), drop: 1 },
      ]),
    );
    if (note) this.note(note);
    return page;
  }
}
