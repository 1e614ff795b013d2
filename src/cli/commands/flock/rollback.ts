import path from "node:path";
import { Args } from "@oclif/core";
import { isReleaseNumber } from "../../../apps/app-ids.js";
import { sameImage, writeFlockFile } from "../../../apps/flock-file.js";
import { FLOCK_FILE } from "../../../apps/folder.js";
import { listAppImageReleases, rollbackAppImage } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { BaseCommand } from "../../shell/base.js";
import { CliError, unknownNameError, usageError } from "../../shell/errors.js";
import { checkFileToWrite } from "../../shell/write-check.js";
import { dirFlag, folderOf, imageCallError, imageFlag, imageOf, readFolderFlock } from "../../flock/flock.js";

export default class FlockRollback extends BaseCommand<typeof FlockRollback> {
  static override hidden = true;
  static override summary = "Serve an earlier release of the app image (early access)";
  static override description =
    `Every app installed from the image (flock.json's, or --image) serves release N from its next load, and flock.json (when it names that image) says so: "served": N. Releases are never removed, so rolling forward again is \`reduck flock rollback\` with the number you came from (see \`reduck flock releases\`). A release whose upload never finished cannot be served.`;

  static override examples = [
    {
      description: "Serve release 2 again",
      command: "<%= config.bin %> flock rollback 2  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
    {
      description: "For another image",
      command:
        "<%= config.bin %> flock rollback 2 --image acme/survey  # not run by the tests: needs an image of yours with two releases; docs/flock.md rolls one back",
    },
  ];

  static override args = {
    release: Args.string({ description: "The release number to serve (as `reduck flock releases` shows it).", required: true }),
  };

  static override flags = { ...dirFlag, ...imageFlag };

  public async run(): Promise<components["schemas"]["AppImage"]> {
    const given = this.args.release.replace(/^v/, "");
    if (!/^[1-9]\d*$/.test(given)) throw usageError(`${JSON.stringify(this.args.release)} is not a release number: see \`reduck flock releases\``);
    const release = Number(given);
    const dir = folderOf(this.flags.dir);
    const image = await imageOf(dir, this.flags.image);
    // flock.json follows its own image: checked before the service acts, written after.
    const flock = await readFolderFlock(dir);
    const file =
      flock.image && sameImage(flock.image, image) ? await checkFileToWrite(path.join(dir, FLOCK_FILE), `--dir ${this.flags.dir ?? "."}`) : undefined;
    const client = await this.client();
    const doing = `rolling ${image.handle}/${image.slug} back to release ${release}`;
    const rolled = await rollbackAppImage({ client, path: image, body: { release } });
    if (rolled.error) {
      // A 404 for a release the image lacks: exit 2, with the releases it has. For an image the
      // service does not know (its releases cannot be read either): exit 2, with the image meant.
      if (rolled.error.status === 404) {
        const newest = await listAppImageReleases({ client, path: image, query: { pageSize: 1 } });
        if (!newest.error) {
          const number = newest.data[0]?.number;
          throw unknownNameError(rolled.error, doing, releasesHint(`${image.handle}/${image.slug}`, isReleaseNumber(number) ? number : undefined));
        }
      }
      throw await imageCallError(client, image, rolled.error, doing);
    }
    const served = rolled.data;
    if (served.current_release !== null && !isReleaseNumber(served.current_release)) {
      throw new CliError(`${doing}: the service answered a release number that is not one (a positive integer)`, undefined, { kind: "invalid_response" });
    }
    const now = served.current_release ?? release;
    if (file) {
      try {
        await writeFlockFile(dir, { ...flock.raw, served: now });
      } catch (err) {
        throw new CliError(
          `${image.handle}/${image.slug} now serves release ${now}, but ${file} could not be written (${(err as NodeJS.ErrnoException).code ?? String(err)}): set "served": ${now} in it`,
          undefined,
          { kind: "local_write" },
        );
      }
    }
    this.log(`${image.handle}/${image.slug} now serves release ${now}.`);
    return served;
  }
}

/** What an image has, for a release number it lacks: its newest release (releases count up from 1). */
function releasesHint(address: string, newest: number | undefined): string {
  if (!newest) return `${address} has no releases yet: \`reduck flock deploy\` makes one.`;
  const has = newest === 1 ? "only release 1" : `releases 1 to ${newest}`;
  return `${address} has ${has}: see \`reduck flock releases\`.`;
}
