import { Args, Flags } from "@oclif/core";
import { updateAppSecrets } from "../../../../generated/operations.js";
import type { components } from "../../../../generated/schema.js";
import { BaseCommand } from "../../../shell/base.js";
import { appOf, dirFlag, folderAppCallError, folderOf } from "../../../flock/flock.js";
import { unknownSecretWarnings } from "../../../flock/secret-names.js";
import { readSecretValue, secretSources } from "../../../flock/secret-values.js";

export default class FlockSecretsSet extends BaseCommand<typeof FlockSecretsSet> {
  static override hidden = true;
  static override strict = false;
  static override summary = "Set secrets of the app flock.json names: the values behind ${NAME} in .api-keys.json (early access)";
  static override description =
    `Each NAME=value (split on the first "=") sets one secret of the installed app that flock.json in --dir (default: the current folder) names; several go in one call, all or none. Values are sealed by the service and never readable again; this command never prints them, nor any argument it cannot read (it names the argument by its position). A new secret is closed to the app's page: only its server-side tasks may spend it.

A value on the command line shows in \`ps\` and your shell's history. Instead, NAME=- reads the value from standard input (a hidden prompt on a terminal), and --from-file NAME=PATH from a file; either way without its final line end, as "$(cat PATH)" would give it.

A NAME that neither .api-keys.json uses (as \${NAME}) nor manifest.json declares (those of --dir, else those of the release the app serves) is set all the same, with a warning that names the app's secrets and the one most likely meant.`;

  static override examples = [
    {
      description: "One secret, typed at a hidden prompt (or piped in)",
      command:
        "<%= config.bin %> flock secrets:set NOTION_TOKEN=-  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
    {
      description: "From a file",
      command:
        "<%= config.bin %> flock secrets:set --from-file NOTION_TOKEN=./notion-token.txt  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
    {
      description: "Several at once (all land, or none)",
      command:
        '<%= config.bin %> flock secrets:set A_KEY="$A_KEY" B_KEY="$B_KEY"  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one',
    },
  ];

  static override args = {
    secret: Args.string({ description: "NAME=value, or NAME=- to read the value from standard input; repeat for several." }),
  };

  static override flags = {
    ...dirFlag,
    "from-file": Flags.string({
      description: "NAME=PATH: the value is the file's contents, without its final line end. Repeat for several.",
      helpValue: "NAME=PATH",
      multiple: true,
    }),
  };

  public async run(): Promise<components["schemas"]["AppSecrets"]> {
    // Every NAME=value, without the flags and their values (strict: false keeps them all in argv).
    const { argv } = await this.parse(FlockSecretsSet);
    const sources = secretSources(argv as string[], this.flags["from-file"] ?? []);
    const dir = folderOf(this.flags.dir);
    const app = await appOf(dir);
    const client = await this.client();
    const names = [...sources.keys()];
    for (const warning of await unknownSecretWarnings(client, dir, app, names)) process.stderr.write(`Warning: ${warning}\n`);
    const secrets: Record<string, string> = {};
    for (const [name, source] of sources) secrets[name] = await readSecretValue(name, source);
    const doing = `setting ${names.join(", ")} on app ${app.id}`;
    const set = await updateAppSecrets({ client, path: { handle: app.handle, appId: app.id }, body: { secrets } });
    if (set.error) throw await folderAppCallError(client, dir, set.error, doing);
    this.log(`Set ${names.join(", ")} on app ${app.id} (values are never shown).`);
    return set.data;
  }
}
