import { revokeSignIn } from "../../auth/revoke.js";
import { AuthError } from "../../auth/types.js";
import { writeText } from "../shell/terminal-text.js";
import { DEFAULT_BASE_URL } from "../../core/client.js";
import { BaseCommand } from "../shell/base.js";
import { authWords } from "../shell/cli-words.js";
import { storedCredential, updateConfig } from "../shell/config.js";
import { cliFetch } from "../shell/network.js";

export default class Logout extends BaseCommand<typeof Logout> {
  static override summary = "Sign out of this API URL: revoke the OAuth sign-in and forget what was stored";
  static override description =
    `An OAuth sign-in is revoked at its authorization server when that server offers revocation, then forgotten; a stored API key is forgotten (it keeps working until you delete it at https://reduck.ai/api-keys). If this URL was remembered by \`reduck login --api-url\`, later commands go back to https://reduck.ai.`;
  static override examples = ["<%= config.bin %> logout", "<%= config.bin %> logout --api-url http://127.0.0.1:4010"];

  public async run() {
    const apiUrl = this.apiUrl();
    const stored = await storedCredential(apiUrl);
    let revoked: "revoked" | "not offered" | "failed" | undefined;
    if (stored && "oauth" in stored) {
      try {
        revoked = await revokeSignIn(stored.oauth, cliFetch());
      } catch (err) {
        if (!(err instanceof AuthError)) throw err;
        revoked = "failed";
        writeText(process.stderr, `Warning: ${authWords(err, `${err.message}.`)} It is forgotten here all the same.\n`);
      }
    }
    const { removed, forgotUrl } = await updateConfig((config) => {
      const removed = Boolean(config.credentials?.[apiUrl]);
      if (config.credentials) delete config.credentials[apiUrl];
      const forgotUrl = config.apiUrl === apiUrl;
      if (forgotUrl) delete config.apiUrl;
      return { removed, forgotUrl };
    });
    if (!removed) this.note(`No stored sign-in for ${apiUrl}.`);
    else if (!stored || !("oauth" in stored)) this.note(`Signed out of ${apiUrl}: the stored API key is forgotten.`);
    else if (revoked === "revoked") this.note(`Signed out of ${apiUrl}: the sign-in is revoked at ${stored.oauth.issuer} and forgotten here.`);
    else if (revoked === "not offered")
      this.note(`Signed out of ${apiUrl}: forgotten here (${stored.oauth.issuer} offers no revocation, so its tokens work until they expire).`);
    else this.note(`Signed out of ${apiUrl}.`);
    if (forgotUrl) this.note(`Later commands use ${DEFAULT_BASE_URL} again (or --api-url, REDUCK_API_URL).`);
    if (process.env.REDUCK_API_KEY) this.note("REDUCK_API_KEY is still set and is used when present.");
    return { apiUrl, removed, ...(revoked ? { revoked: revoked === "revoked" } : {}) };
  }
}
