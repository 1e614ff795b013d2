import path from "node:path";
import { Args, Flags } from "@oclif/core";
import { appAnswerProblem } from "../../../apps/app-ids.js";
import { writeFlockFile } from "../../../apps/flock-file.js";
import { FLOCK_FILE } from "../../../apps/folder.js";
import { createApp } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { BaseCommand } from "../../shell/base.js";
import { CliError } from "../../shell/errors.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { checkFileToWrite, prepareFolder } from "../../shell/write-check.js";
import { appAddress, dirFlag, folderOf, installCallError, parseImage, readFolderFlock } from "../../flock/flock.js";
import { ownHandle } from "../../scripts/own-handle.js";

export default class FlockInstall extends BaseCommand<typeof FlockInstall> {
  static override hidden = true;
  static override summary = "Install a running app from an app image, and record it in flock.json (early access)";
  static override description =
    `Mints an app from IMAGE (HANDLE/SLUG, e.g. @you/my-app): a fresh instance with its own database, blobs and secrets, serving whatever release the image points at, now and after every later deploy. It is installed in your own scope unless --scope names a project. flock.json in --dir (default: the current folder; made when missing) then names it, for \`reduck flock open\` and \`reduck flock secrets:set\`. A --dir where flock.json cannot be written is refused before anything is installed.

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
    // Everything that can fail here is checked before the app is installed: an install whose
    // flock.json cannot be written leaves an app no folder names, and a retry makes another.
    const what = `--dir ${this.flags.dir ?? "."}`;
    const dir = await prepareFolder(folderOf(this.flags.dir), what);
    const file = await checkFileToWrite(path.join(dir, FLOCK_FILE), what);
    const flock = await readFolderFlock(dir);
    const client = await this.client();
    const scope = this.flags.scope ?? (await ownHandle(client));
    const address = `${image.handle}/${image.slug}`;
    const doing = `installing ${address}`;
    const made = await createApp({ client, path: { handle: scope }, body: { image, ...(this.flags.name ? { name: this.flags.name } : {}) } });
    // An image or a scope the service does not know is the user's typo to fix: exit 2, with the one meant.
    if (made.error) throw await installCallError(client, image, scope, made.error, doing);
    const app = made.data;
    const problem = appAnswerProblem(app);
    if (problem) {
      throw new CliError(
        `${doing}: the service answered ${problem}, so it was neither shown nor written to ${file}. An app of ${address} may have been installed in ${scope}: \`reduck flock list ${scope}\` lists its apps`,
        ExitCode.FAILED,
        { kind: "invalid_response" },
      );
    }
    const record = { ...flock.raw, image: flock.image ?? image, app: { handle: app.owner.handle, id: app.id } };
    try {
      await writeFlockFile(dir, record);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      throw new CliError(
        `Installed ${address} as app ${app.id} in ${app.owner.handle}, but ${file} could not be written (${code}). To finish, write this into it: ${JSON.stringify(record)}. To undo, uninstall the app: \`uninstallApp({ client, path: { handle: "${app.owner.handle}", appId: "${app.id}" } })\` from reduck-client`,
        ExitCode.FAILED,
        { kind: "local_write", appId: app.id, handle: app.owner.handle },
      );
    }
    this.log(`Installed ${address} as app ${app.id} in ${app.owner.handle}: ${appAddress(this.apiUrl(), app.id)}`);
    return app;
  }
}
