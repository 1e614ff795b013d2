import path from "node:path";
import { Args, Flags } from "@oclif/core";
import { printOutcomes, printPending } from "../../run/run-report.js";
import { runSteps } from "../../run/run-steps.js";
import { readTree } from "../../scripts/folder-tree.js";
import { selected } from "../../scripts/push-plan.js";
import { draftToTest } from "../../scripts/push.js";
import { BaseCommand, flagDefinitionsOf } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import Run from "../run.js";

export default class ScriptsTest extends BaseCommand<typeof ScriptsTest> {
  static override summary = "Run a script folder's code on the service as a draft, without promoting it";
  static override description =
    `Runs the code and contract of a script folder as they are here: as a draft version of the script (the draft already made from the same content when there is one, else a new one on the version the lock records), with the arguments given as \`reduck run\` takes them (name=value, file:INPUT=PATH). Prints the result as \`reduck run\` does; a failed run says how to see what it did (reduck runs trace ID --open).

The lock is not changed: \`reduck scripts push\` later finds the same draft instead of making another.`;

  static override examples = [
    {
      description: "Run your change to get_title before pushing it",
      command:
        "<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts test scripts/@demo/example.com/get_title --dir scripts url=https://example.com",
    },
  ];

  static override strict = false;

  static override args = {
    path: Args.string({
      description: "The script folder (or its address handle/host/slug), then its arguments: name=value and file:INPUT=PATH.",
      required: true,
    }),
  };

  static override flags = {
    dir: Flags.string({ description: "The folder of the scripts tree (default: the current folder).", default: ".", helpValue: "DIR" }),
  };

  public async run(): Promise<unknown> {
    const { argv } = await this.parse(ScriptsTest);
    const [target, ...rest] = argv as string[];
    const dir = this.flags.dir;
    const tree = await readTree(dir);
    const [key] = [...(selected(tree, dir, [target!], (p) => path.relative(path.resolve(dir), path.resolve(p)).split(path.sep).join("/")) ?? [])];
    if (!tree.scripts.get(key!)?.code) throw usageError(`${target}: the folder holds no code to run (the service withholds it, or it was removed)`);
    for (const word of rest)
      if (word.startsWith("-"))
        throw usageError(`${word}: scripts test takes the script's arguments (name=value, file:INPUT=PATH) after the folder, and --dir`);
    const client = await this.client();
    const draft = await draftToTest(client, tree, key!);
    this.note(`Running ${key} draft version ${draft.versionNumber}${draft.reused ? "" : " (made now)"}: ${draft.versionId}`);
    const printer = { json: this.jsonEnabled(), note: (m: string) => this.note(m), printJson: (v: unknown) => this.printJson(v) };
    const ran = await runSteps({
      argv: ["--script", key!, ...rest],
      flagDefinitions: flagDefinitionsOf(Run),
      flags: { wait: true, "version-id": draft.versionId },
      client: async () => client,
      note: printer.note,
    });
    if ("pending" in ran) return printPending(printer, ran.pending);
    printOutcomes(printer, ran.outcomes, ran.batch, ran.labels, ran.failures);
  }
}
