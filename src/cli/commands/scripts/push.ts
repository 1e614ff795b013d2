import path from "node:path";
import { Args, Flags } from "@oclif/core";
import { renderDiff } from "../../scripts/contract.js";
import { readTree } from "../../scripts/folder-tree.js";
import { planPush, selected } from "../../scripts/push-plan.js";
import { pushStep, type Pushed } from "../../scripts/push.js";
import { BaseCommand } from "../../shell/base.js";
import { CliError, usageError } from "../../shell/errors.js";
import { ExitCode } from "../../shell/exit-codes.js";

export default class ScriptsPush extends BaseCommand<typeof ScriptsPush> {
  static override summary = "Send the scripts changed here as draft versions, and with --promote make them live";
  static override description =
    `For each script folder changed since the pull (see \`reduck scripts status\`), makes a draft version whose parent is the version it was pulled from, prints the service's diff, and records the draft in reduck.lock.json. A folder with no script on the service yet is created as a new script whose first version is a draft. Nothing runs a draft until it is promoted.

Every script is checked before anything is sent. A script whose current version moved on the service since the pull is refused (exit 11), naming both versions; --force bases its draft on the current version instead.

--promote then promotes each draft, after checking that the script still runs the version the draft was based on, and sets the contract's name, description and visibility (the script's own fields). With nothing changed here, --promote promotes the drafts a previous push recorded.

A push stopped half way leaves the lock true to what the service holds; running it again finishes the rest without a second draft of the same content.`;

  static override examples = [
    {
      description: "What a push would send, sending nothing",
      command: '<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts push --dir scripts --note "Wait for the title" --dry-run',
    },
    {
      description: "Push and promote (on merge, in CI)",
      command: '<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts push --dir scripts --note "Release" --promote',
    },
  ];

  static override strict = false;

  static override args = {
    path: Args.string({ description: "A script folder (or its address handle/host/slug) to push; several may be given. Default: every changed script." }),
  };

  static override flags = {
    dir: Flags.string({ description: "The folder of the scripts tree (default: the current folder).", default: ".", helpValue: "DIR" }),
    note: Flags.string({ description: "Why: the note each draft carries (required when something is sent).", helpValue: "TEXT" }),
    promote: Flags.boolean({ description: "Promote each draft once made, if the script still runs the version it was based on." }),
    "dry-run": Flags.boolean({ description: "Say what would be sent, and send nothing." }),
    force: Flags.boolean({ description: "Base the draft of a script changed on the service since the pull on its current version." }),
  };

  public async run(): Promise<unknown> {
    const { argv } = await this.parse(ScriptsPush);
    const dir = this.flags.dir;
    const tree = await readTree(dir);
    const only = selected(tree, dir, argv as string[], (p) => path.relative(path.resolve(dir), path.resolve(p)).split(path.sep).join("/"));
    const client = await this.client();
    const plan = await planPush(client, tree, { ...(only ? { only } : {}), force: this.flags.force, promote: this.flags.promote, dir });
    for (const r of plan.removed) this.note(`${r}: removed here; push does not archive scripts (reduck scripts archive ${r}).`);
    if (plan.refused.length) throw new CliError(`nothing was sent:\n  ${plan.refused.join("\n  ")}`, ExitCode.CONFLICT, { refused: plan.refused });
    if (!plan.steps.length) {
      this.note("Nothing to push: no script changed here since the pull.");
      return { pushed: [] };
    }
    const sending = plan.steps.some((s) => s.kind !== "promote");
    if (sending && !this.flags.note?.trim()) throw usageError("--note is required: say why these drafts are made (it stays with each version)");
    if (this.flags["dry-run"]) {
      for (const s of plan.steps)
        this.log(
          s.kind === "create"
            ? `would create ${s.address} (as a draft)`
            : s.kind === "draft"
              ? `would push ${s.address} as a draft on version ${s.parent.versionNumber}`
              : `would promote ${s.address}'s draft version ${s.draft.versionNumber}`,
        );
      return { dryRun: true, steps: plan.steps.map((s) => ({ address: s.address, kind: s.kind })) };
    }
    const pushed: Pushed[] = [];
    for (const step of plan.steps) {
      const p = await pushStep(client, tree, step, { note: this.flags.note ?? "", promote: this.flags.promote });
      pushed.push(p);
      const what =
        step.kind === "promote"
          ? `draft version ${p.versionNumber}`
          : `${p.created ? "created, with draft version" : p.reused ? "already had draft version" : "draft version"} ${p.versionNumber} (${p.versionId})`;
      if (!this.jsonEnabled())
        this.log(
          `${p.address}: ${what}${step.kind === "draft" ? ` on version ${step.parent.versionNumber}` : ""}${p.promoted ? ", promoted" : ""}${renderDiff(p.diff)}`,
        );
    }
    if (!this.flags.promote)
      this.note(`Drafts run only with their version: try one with \`reduck scripts test PATH\`; promote with \`reduck scripts push --promote\`.`);
    return { pushed };
  }
}
