import { Args } from "@oclif/core";
import { updateAppSecrets } from "../../../../generated/operations.js";
import type { components } from "../../../../generated/schema.js";
import { BaseCommand } from "../../../shell/base.js";
import { usageError } from "../../../shell/errors.js";
import { appOf, dirFlag, folderAppCallError, folderOf } from "../../../flock/flock.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export default class FlockSecretsSet extends BaseCommand<typeof FlockSecretsSet> {
  static override hidden = true;
  static override strict = false;
  static override summary = "Set secrets of the app flock.json names: the values behind ${NAME} in .api-keys.json (early access)";
  static override description =
    `Each NAME=value (split on the first "=") sets one secret of the installed app that flock.json in --dir (default: the current folder) names. Values are sealed by the service and never readable again; this command never prints them. A new secret is closed to the app's page: only its server-side tasks may spend it.

A value on the command line shows in \`ps\` and your shell's history: prefer NAME="$(cat token.txt)" or an environment variable.`;

  static override examples = [
    {
      description: "One secret",
      command:
        '<%= config.bin %> flock secrets:set NOTION_TOKEN="$NOTION_TOKEN"  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one',
    },
    {
      description: "Several at once (all land, or none)",
      command:
        '<%= config.bin %> flock secrets:set A_KEY="$A_KEY" B_KEY="$B_KEY"  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one',
    },
  ];

  static override args = {
    secret: Args.string({ description: "NAME=value; repeat for several.", required: true }),
  };

  static override flags = { ...dirFlag };

  public async run(): Promise<components["schemas"]["AppSecrets"]> {
    // Every NAME=value, without the flags and their values (strict: false keeps them all in argv).
    const { argv } = await this.parse(FlockSecretsSet);
    const secrets: Record<string, string> = {};
    for (const token of argv as string[]) {
      const eq = token.indexOf("=");
      const name = eq > 0 ? token.slice(0, eq) : token;
      if (eq <= 0) throw usageError(`${JSON.stringify(name)} has no value: write NAME=value`);
      if (!NAME.test(name)) throw usageError(`${JSON.stringify(name)} is not a secret name: a letter or '_' first, then letters, digits and '_' (64 at most)`);
      secrets[name] = token.slice(eq + 1);
    }
    if (!Object.keys(secrets).length) throw usageError("give at least one NAME=value");
    const dir = folderOf(this.flags.dir);
    const app = await appOf(dir);
    const client = await this.client();
    const names = Object.keys(secrets);
    const doing = `setting ${names.join(", ")} on app ${app.id}`;
    const set = await updateAppSecrets({ client, path: { handle: app.handle, appId: app.id }, body: { secrets } });
    if (set.error) throw await folderAppCallError(client, dir, set.error, doing);
    const answer = set.data;
    this.log(`Set ${names.join(", ")} on app ${app.id} (values are never shown).`);
    return answer;
  }
}
