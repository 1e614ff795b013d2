import { getMe } from "../../generated/operations.js";
import { BaseCommand, type ApiUrlSource, type CredentialInUse } from "../shell/base.js";
import { storedCredential } from "../shell/config.js";
import { renderFields } from "../shell/output.js";
import { checkAnswer } from "../shell/answer-check.js";
import { ME } from "../shell/answer-shapes.js";

export default class Whoami extends BaseCommand<typeof Whoami> {
  static override summary = "Show the account your credential belongs to, which credential and URLs are in use, its projects and usage";
  static override examples = ["<%= config.bin %> whoami", "<%= config.bin %> whoami --json"];

  public async run() {
    const client = await this.client();
    const me = checkAnswer(this.unwrap(await getMe({ client })), ME, "reading your account");
    const credential = await this.describeCredential(await this.credential());
    const urls = { apiUrl: this.apiUrl(), apiUrlSource: this.apiUrlSource, runUrl: this.runUrl() };
    if (this.jsonEnabled()) return { ...me, credential: { ...credential.json, ...urls } };
    const runs = me.usage?.runs;
    this.log(
      renderFields([
        ["Account", `${me.name} <${me.email}>`],
        ["Handle", me.handle ?? "(no username yet)"],
        ["Projects", me.projects.map((p) => `${p.handle} (${p.role})`).join(", ") || "none"],
        ["Runs this period", runs ? `${runs.used}${runs.limit !== null ? ` of ${runs.limit}` : ""}` : "-"],
        ["Signed in with", credential.text],
        ["API", `${urls.apiUrl}${URL_SOURCES[urls.apiUrlSource]}`],
        ["Run host", urls.runUrl],
      ]),
    );
    return me;
  }

  /** Which credential, from where; for OAuth, as whom and until when (read after getMe refreshed it). */
  private async describeCredential(credential: CredentialInUse): Promise<{ text: string; json: Record<string, unknown> }> {
    if (credential.kind === "apiKey") {
      const text = {
        flag: "an API key from --api-key",
        env: "an API key from REDUCK_API_KEY",
        login: "an API key stored by `reduck login --with-api-key`",
      }[credential.source];
      const stored = credential.source === "login" ? undefined : await storedCredential(this.apiUrl()).catch(() => undefined);
      const shadows = stored ? " (it takes precedence over the sign-in stored for this URL)" : "";
      return { text: text + shadows, json: { kind: "apiKey", source: credential.source } };
    }
    const stored = await storedCredential(this.apiUrl());
    const signIn = stored && "oauth" in stored ? stored.oauth : credential.signIn;
    const expiresAt = signIn.tokens[this.apiUrl()]?.expiresAt;
    const until = expiresAt ? `; access token valid until ${readableTime(expiresAt)}, renewed automatically` : "";
    return {
      text: `OAuth, as ${signIn.account ?? "(unknown)"} via ${signIn.issuer}${until}`,
      json: { kind: "oauth", source: "login", account: signIn.account, issuer: signIn.issuer, expiresAt },
    };
  }
}

const URL_SOURCES: Record<ApiUrlSource, string> = {
  flag: " (from --api-url)",
  env: " (from REDUCK_API_URL)",
  login: " (remembered by `reduck login --api-url`)",
  default: "",
};

function readableTime(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
}
