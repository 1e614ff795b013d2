import { BaseCommand } from "../base.js";
import { forgetKey } from "../config.js";

export default class Logout extends BaseCommand<typeof Logout> {
  static override summary = "Forget the stored API key for this API URL";
  static override examples = ["<%= config.bin %> logout", "REDUCK_API_URL=http://127.0.0.1:4010 <%= config.bin %> logout"];

  public async run() {
    const apiUrl = this.apiUrl();
    const removed = await forgetKey(apiUrl);
    this.note(removed ? `Signed out of ${apiUrl}.` : `No stored login for ${apiUrl}.`);
    if (process.env.REDUCK_API_KEY) this.note("REDUCK_API_KEY is still set and is used when present.");
    return { apiUrl, removed };
  }
}
