import { Args, Flags } from "@oclif/core";
import { deployApp } from "../../../apps/deploy.js";
import { DEFAULT_UPLOAD_TIMEOUT_MS, type DeployedApp, type DeployProgress } from "../../../apps/deploy-options.js";
import { formatBytes } from "../../../core/bytes.js";
import { listAppImages } from "../../../generated/operations.js";
import { BaseCommand } from "../../shell/base.js";
import { CliError, fromReduckError, usageError } from "../../shell/errors.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { statusLine } from "../../shell/status-line.js";
import { folderOf, imageFlag, parseImage, readFolderFlock, scopeCallError } from "../../flock/flock.js";

export default class FlockDeploy extends BaseCommand<typeof FlockDeploy> {
  static override hidden = true;
  static override summary = "Deploy an app folder as a new release of its image (early access)";
  static override description =
    `Reads DIR (default: the current folder): manifest.json, config.json, .api-keys.json and tools.json are sent as the release's install contract, settings, grant and tools; every other file is served under its path, except flock.json, dot-files and node_modules. Nothing is sent when a file is over 64 MiB, there are more than 256 files, or a name is one the service does not serve (a letter or digit first, then letters, digits, '.', '_', '-', '/'): every such problem is listed, exit 2.

The files go straight to storage, several at a time, each tried again when its upload fails (an upload that makes no progress for --upload-timeout seconds counts as failed); then the release is published and its number printed. The image (your handle and the manifest's "slug", or the folder's name, unless flock.json or --image says otherwise) is created on the first deploy. flock.json records the image and the release.

An interrupted deploy, run again over the same folder, finishes the release it started (while its upload URLs last) instead of starting another; .flock-deploy.json holds that pending release meanwhile.

Flock is in early access: an account without it gets the service's 403 (exit 1).`;

  static override examples = [
    { description: "Deploy the current folder", command: "<%= config.bin %> flock deploy" },
    { description: "Deploy a folder to a project's image", command: "<%= config.bin %> flock deploy . --image acme/notes" },
    { description: "The outcome as JSON", command: "<%= config.bin %> flock deploy --json" },
    { description: "Wait up to 5 minutes for a stalled upload before trying it again", command: "<%= config.bin %> flock deploy --upload-timeout 300" },
  ];

  static override args = {
    dir: Args.string({ description: "The app folder (default: the current folder)." }),
  };

  static override flags = {
    ...imageFlag,
    "upload-timeout": Flags.string({
      description:
        "Seconds an upload may go without progress (storage takes no more bytes and gives no answer) before it is tried again (decimals allowed); 0: wait forever.",
      default: String(DEFAULT_UPLOAD_TIMEOUT_MS / 1000),
      helpValue: "SECONDS",
    }),
  };

  public async run(): Promise<DeployedApp> {
    const timeout = this.flags["upload-timeout"].trim();
    if (!/^\d+(\.\d+)?$/.test(timeout)) throw usageError(`--upload-timeout takes seconds, such as 60 or 0.5 (you gave ${JSON.stringify(timeout)})`);
    const client = await this.client();
    const dir = folderOf(this.args.dir);
    const line = progressLine(process.stderr, !this.jsonEnabled());
    const result = await deployApp({
      client,
      dir,
      ...(this.flags.image ? { image: parseImage(this.flags.image) } : {}),
      uploadTimeoutMs: Math.round(Number(timeout) * 1000),
      onProgress: line.update,
    });
    line.done();
    if (result.error?.status === 404) {
      // Creating the image in a scope the service does not know (or the caller is not in): the
      // handle of --image or flock.json is the user's to fix (exit 2, with the scope meant).
      const handle = this.flags.image ? parseImage(this.flags.image).handle : (await readFolderFlock(dir)).image?.handle;
      const scope = handle ? await listAppImages({ client, path: { handle }, query: { pageSize: 1 } }) : undefined;
      if (handle && scope?.error?.status === 404) throw await scopeCallError(client, handle, result.error);
    }
    if (result.error?.acted) {
      // The service acted; what failed was a write in the folder: not a usage error.
      const { message, detail } = fromReduckError(result.error);
      throw new CliError(message, ExitCode.FAILED, { ...detail, acted: result.error.acted });
    }
    if (result.error) throw fromReduckError(result.error);
    const { image, release, resumed } = result.data;
    this.log(`Published release ${release} of ${image.handle}/${image.slug}${resumed ? " (finishing the interrupted deploy)" : ""}.`);
    return result.data;
  }
}

/** `Deploying release 3: 4/9 files, 1.2 MB / 8.0 MB` on the status line (shell/status-line.ts). */
function progressLine(stream: NodeJS.WriteStream, wanted: boolean) {
  const line = statusLine(stream, wanted);
  return {
    update(p: DeployProgress) {
      if (!line.enabled) return;
      // Redrawn at most 10 times a second, except when a file finishes or the phase changes.
      if (p.phase === "uploading" && !p.finished && !p.retrying && !line.due(100)) return;
      const release = p.release === undefined ? "" : `release ${p.release}: `;
      const text =
        p.phase === "starting"
          ? "Starting a release..."
          : p.phase === "uploading"
            ? `${release}${p.filesDone}/${p.filesTotal} files, ${formatBytes(p.bytesDone)} / ${formatBytes(p.bytesTotal)}${p.retrying ? ` (trying ${p.retrying.file} again)` : ""}`
            : p.phase === "publishing"
              ? `${release}publishing...`
              : `${release}published`;
      line.show(`Deploying ${text}`);
    },
    done: () => line.clear(),
  };
}
