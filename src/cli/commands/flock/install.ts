import { Args, Flags } from "@oclif/core";
import { readFlockFile, writeFlockFile } from "../../../apps/flock-file.js";
import { createApp } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { BaseCommand } from "../../shell/base.js";
import { appAddress, dirFlag, folderOf, installCallError, parseImage } from "../../flock/flock.js";
import { ownHandle } from "../../scripts/own-handle.js";

export default class FlockInstall extends BaseCommand<typeof FlockInstall> {
  static override hidden = true;
  static override summary = "Install a running app from an app image, and record it in flock.json (early access)";
  static override description =
    `Mints an app from IMAGE (HANDLE/SLUG, e.g. @you/my-app): a fresh instance with its own database, blobs and secrets, serving whatever release the image points at, now and after every later deploy. It is installed in your own scope unless --scope names a project. flock.json in --dir (default: the current folder) then names it, for \`reduck flock open\` and \`reduck flock secrets:set\`.

An image with nothing deployed yet cannot be installed: \`reduck flock deploy\` first.`;

  static override examples = [
    { description: "Install an image and point this folder at the app", command: "<%= config.bin %> flock install reduck/guestbook --dir ." },
    { description: "Install into a project, under a name", command: "<%= config.bin %> flock install reduck/guestbook --scope acme --name 'Team guestbook'" },
  ];

  static override args = {
    image: Args.string({ description: "The app image: HANDLE/SLUG.", required: true }),
  };

  static override flags = {
    ...dirFlag,
    scope: Flags.string({ description: "Install in this scope: a project's handle (default: your own).", helpValue: "HANDLE" }),
    name: Flags.string({ description: "The app's display name (default: the image's)." }),
  };

  public async run(): Promise<components["schemas"]["App"]> {
    const image = parseImage(this.args.image);
    const dir = folderOf(this.flags.dir);
    const client = await this.client();
    const scope = this.flags.scope ?? (await ownHandle(client));
    const doing = `installing ${image.handle}/${image.slug}`;
    const made = await createApp({ client, path: { handle: scope }, body: { image, ...(this.flags.name ? { name: this.flags.name } : {}) } });
    // An image or a scope the service does not know is the user's typo to fix: exit 2, with the one meant.
    if (made.error) throw await installCallError(client, image, scope, made.error, doing);
    const app = made.data;
    const flock = await readFlockFile(dir);
    await writeFlockFile(dir, { ...flock.raw, image: flock.image ?? image, app: { handle: app.owner.handle, id: app.id } });
    this.log(`Installed ${image.handle}/${image.slug} as app ${app.id} in ${app.owner.handle}: ${appAddress(this.apiUrl(), app.id)}`);
    return app;
  }
}
