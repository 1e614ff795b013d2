import { Flags } from "@oclif/core";
import { DEFAULT_BASE_URL } from "../../core/client.js";
import { signInWithApiKey, signInWithOAuth, storeSignIn } from "../login/sign-in.js";
import { BaseCommand } from "../shell/base.js";
import { configFile, readConfig } from "../shell/config.js";
import { usageError } from "../shell/errors.js";
import { refuseInsecureHttp } from "../shell/network.js";

export default class Login extends BaseCommand<typeof Login> {
  static override summary = "Sign in to Reduck in your browser (or store an API key)";
  static override description =
    `Signs in with OAuth: opens the authorization server the API names in your browser, waits for you to sign in there, and stores the tokens it gives (refreshed automatically) in ~/.config/reduck/config.json (or $REDUCK_CONFIG_DIR), readable only by you. The link is also printed, for a browser that does not open by itself; it must be opened on this machine.

With --with-api-key, stores an API key instead, read from standard input or a hidden prompt (never from the command line, where other users could see it in \`ps\`). Create keys at https://reduck.ai/api-keys.

Each API URL has its own sign-in. With --api-url, later commands use that URL until you sign out of it. REDUCK_API_KEY, when set, is used instead of any stored sign-in.`;
  static override examples = [
    { description: "Sign in in your browser", command: "<%= config.bin %> login  # not run by the tests: signs in with a browser" },
    {
      description: "Print the link instead of opening a browser",
      command: "<%= config.bin %> login --no-browser  # not run by the tests: signs in with a browser",
    },
    { description: "Type an API key at a hidden prompt", command: "<%= config.bin %> login --with-api-key" },
    {
      description: "Pipe an API key from a password manager",
      command: "op read op://dev/reduck/key | <%= config.bin %> login --with-api-key  # not run by the tests: needs 1Password's op",
    },
    {
      description: "Store the key a local sandbox printed; later commands go there",
      command: "<%= config.bin %> login --with-api-key --api-url http://127.0.0.1:4010",
    },
  ];
  static override flags = {
    "with-api-key": Flags.boolean({ description: "Store an API key (from standard input or a hidden prompt) instead of signing in with OAuth." }),
    browser: Flags.boolean({ allowNo: true, default: true, description: "Open the sign-in link in your browser (--no-browser only prints it)." }),
    "client-id": Flags.string({
      env: "REDUCK_OAUTH_CLIENT_ID",
      description: "OAuth client id to sign in with, for an authorization server that does not register clients itself.",
    }),
    timeout: Flags.integer({ min: 1, default: 300, description: "Seconds to wait for the sign-in in the browser." }),
  };

  public async run() {
    if (this.flags["api-key"]) throw usageError("login never takes a key from the command line: run `reduck login --with-api-key` and paste it, or pipe it in");
    const apiUrl = this.apiUrl();
    // Before the key is even asked for: nothing is stored, nothing sent.
    refuseInsecureHttp([apiUrl, this.runUrl()], this.flags["with-api-key"] ? "your API key" : "the token you sign in for");
    // Read now: a damaged config file stops the login before anything would overwrite it.
    const config = await readConfig();
    if (process.env.REDUCK_API_KEY) {
      this.note("Note: REDUCK_API_KEY is set, and it takes precedence over the sign-in stored here: unset it to use this one.");
    }
    const signedIn = this.flags["with-api-key"]
      ? await signInWithApiKey(apiUrl)
      : await signInWithOAuth(
          { apiUrl, runUrl: this.runUrl(), clientId: this.flags["client-id"], browser: this.flags.browser, timeoutMs: this.flags.timeout * 1000 },
          config,
        );
    const { credential, account } = signedIn;
    const file = configFile();
    await storeSignIn(apiUrl, signedIn, this.apiUrlSource === "flag");
    const how = "oauth" in credential ? `with OAuth via ${credential.oauth.issuer}` : "with an API key";
    this.note(`Signed in to ${apiUrl} as ${account} ${how}. Stored in ${file}.`);
    if (this.apiUrlSource === "flag" && apiUrl !== DEFAULT_BASE_URL) this.note(`Later commands use ${apiUrl} until you run \`reduck logout\` for it.`);
    return {
      apiUrl,
      account,
      credential: "oauth" in credential ? "oauth" : "apiKey",
      ...("oauth" in credential ? { issuer: credential.oauth.issuer } : {}),
      file,
    };
  }
}
