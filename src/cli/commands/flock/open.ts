import { isAppId } from "../../../apps/app-ids.js";
import { getApp } from "../../../generated/operations.js";
import { BaseCommand } from "../../shell/base.js";
import { CliError } from "../../shell/errors.js";
import { appAddress, appOf, dirFlag, folderAppCallError, folderOf } from "../../flock/flock.js";

export default class FlockOpen extends BaseCommand<typeof FlockOpen> {
  static override hidden = true;
  static override summary = "Print the address of the app flock.json names (early access)";
  static override description =
    `The installed app that flock.json in --dir (default: the current folder) names, checked with the service, and its address printed on stdout: open it in a browser, where whoever opens it signs in to Reduck. REDUCK_FLOCK_URL sets where apps are served, when that is not the API's own server.`;

  static override examples = [
    {
      description: "This folder's app",
      command: "<%= config.bin %> flock open  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
    {
      description: "The address and the app's record, as JSON",
      command: "<%= config.bin %> flock open --json  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
  ];

  static override flags = { ...dirFlag };

  public async run(): Promise<{ url: string; app: unknown }> {
    const dir = folderOf(this.flags.dir);
    const { handle, id } = await appOf(dir);
    const client = await this.client();
    const read = await getApp({ client, path: { handle, appId: id } });
    if (read.error) throw await folderAppCallError(client, dir, read.error, `reading app ${id}`);
    const app = read.data;
    // The answer's id becomes the app's address (a URL): checked there, and only there.
    if (!isAppId(app.id)) {
      throw new CliError(`reading app ${id}: the service answered an app id that is not one (a UUID), so it cannot make the app's address`, undefined, {
        kind: "invalid_response",
      });
    }
    const url = appAddress(this.apiUrl(), app.id);
    this.log(url);
    return { url, app };
  }
}
