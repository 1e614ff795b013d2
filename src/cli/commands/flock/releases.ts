import { listAppImageReleases } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { BaseCommand } from "../../shell/base.js";
import { dirFlag, folderOf, imageCallError, imageFlag, imageOf } from "../../flock/flock.js";
import { fetchList, pageFlags, shortTime, type Page } from "../../shell/list-flags.js";
import { renderTable } from "../../shell/output.js";

type Release = components["schemas"]["AppImageReleaseSummary"];

export default class FlockReleases extends BaseCommand<typeof FlockReleases> {
  static override hidden = true;
  static override summary = "List an app image's releases, newest first (early access)";
  static override description =
    `The image flock.json names (or --image). The current release is the one every app installed from the image serves; \`reduck flock rollback N\` serves another. A release never published (its upload never finished) shows "-" as published.

With --json, the API's page: {"data": [...], "hasNextPage", "totalCount"}.`;

  static override examples = [
    {
      description: "This folder's image",
      command: "<%= config.bin %> flock releases  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
    { description: "Another image, every page, as JSON", command: "<%= config.bin %> flock releases --image reduck/guestbook --all --json" },
  ];

  static override flags = { ...dirFlag, ...imageFlag, ...pageFlags };

  public async run(): Promise<Page<Release>> {
    const image = await imageOf(folderOf(this.flags.dir), this.flags.image);
    const client = await this.client();
    const doing = `listing the releases of ${image.handle}/${image.slug}`;
    const { page, note } = await fetchList(listAppImageReleases, { client, path: image }, this.flags, doing, (error) =>
      imageCallError(client, image, error, doing),
    );
    // A release's number is only shown here (as text, in the table): one of an odd shape is still a row.
    if (this.jsonEnabled()) return page;
    if (!page.data.length) {
      this.note(`${image.handle}/${image.slug} has no releases yet: \`reduck flock deploy\` makes one.`);
      return page;
    }
    this.log(
      renderTable(page.data, [
        { header: "release", get: (r) => `${r.number}${r.current ? " (current)" : ""}`, keep: true },
        { header: "published", get: (r) => shortTime(r.published_at) },
        { header: "files", get: (r) => String(r.asset_count) },
        { header: "started", get: (r) => shortTime(r.created_at) },
      ]),
    );
    if (note) this.note(note);
    return page;
  }
}
