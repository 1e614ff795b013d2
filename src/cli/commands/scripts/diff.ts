import path from "node:path";
import { Args, Flags } from "@oclif/core";
import { diffText, folderDiffs } from "../../scripts/folder-diff.js";
import { basesFolder, readTree } from "../../scripts/folder-tree.js";
import { recoverPulled } from "../../scripts/remote-script.js";
import { selected } from "../../scripts/push-plan.js";
import { BaseCommand } from "../../shell/base.js";

export default class ScriptsDiff extends BaseCommand<typeof ScriptsDiff> {
  static override summary = "Show what changed in pulled scripts: the code as a unified diff, contract fields from and to";
  static override description =
    "For each script folder changed since the pull (or the ones named, by folder or address), prints the code's changes as a unified diff and each changed contract field with its value before and after. What was pulled is kept on this machine by the pull, so diff is offline; in a tree pulled on another machine (a fresh clone), the pulled versions are read from the service once. --json gives the same as data.";

  static override examples = [
    { description: "Every change under ./scripts", command: "<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts diff --dir scripts" },
    {
      description: "One script, by its address",
      command: "<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts diff @demo/example.com/get_title --dir scripts --json",
    },
  ];

  static override strict = false;

  static override args = {
    path: Args.string({ description: "A script folder, or its address handle/host/slug; several may be given. Default: every changed script." }),
  };

  static override flags = {
    dir: Flags.string({ description: "The folder of the scripts tree (default: the current folder).", default: ".", helpValue: "DIR" }),
  };

  public async run(): Promise<unknown> {
    const { argv } = await this.parse(ScriptsDiff);
    const dir = this.flags.dir;
    const tree = await readTree(dir);
    const only = selected(tree, dir, argv as string[], (p) => path.relative(path.resolve(dir), path.resolve(p)).split(path.sep).join("/"));
    let diffs = await folderDiffs(tree, only);
    const unknown = diffs.filter((d) => d.pulledUnknown && tree.lock.scripts[d.address]);
    if (unknown.length) {
      // Pulled on another machine: read the pulled versions from the service, once, then compare.
      const client = await this.client();
      await Promise.all(unknown.map((d) => recoverPulled(client, d.address, tree.lock.scripts[d.address]!, basesFolder())));
      diffs = await folderDiffs(tree, only);
    }
    if (!this.jsonEnabled()) for (const d of diffs) this.log(diffText(d));
    return { scripts: diffs };
  }
}
