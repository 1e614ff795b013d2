import { getMe } from "../../generated/operations.js";
import { BaseCommand } from "../base.js";
import { renderFields } from "../output.js";

export default class Whoami extends BaseCommand<typeof Whoami> {
  static override summary = "Show the account your credential belongs to, its projects and usage";
  static override examples = ["<%= config.bin %> whoami", "<%= config.bin %> whoami --json"];

  public async run() {
    const client = await this.client();
    const me = this.unwrap(await getMe({ client }));
    if (this.jsonEnabled()) return me;
    const runs = me.usage?.runs;
    this.log(
      renderFields([
        ["Account", `${me.name} <${me.email}>`],
        ["Handle", me.handle ?? "(no username yet)"],
        ["Projects", me.projects.map((p) => `${p.handle} (${p.role})`).join(", ") || "none"],
        ["Runs this period", runs ? `${runs.used}${runs.limit !== null ? ` of ${runs.limit}` : ""}` : "-"],
        ["Signed in with", { flag: "--api-key", env: "REDUCK_API_KEY", login: "stored login" }[this.credentialSource ?? "env"]],
        ["API", this.apiUrl()],
      ]),
    );
    return me;
  }
}
