import { Flags } from "@oclif/core";
import { checkAnswer } from "../shell/answer-check.js";
import { ME } from "../shell/answer-shapes.js";
import { writeText } from "../shell/terminal-text.js";
import { openBrowser } from "../../auth/browser.js";
import { durationInWords } from "../../core/duration.js";
import { signInWithBrowser } from "../../auth/sign-in.js";
import { AuthError } from "../../auth/types.js";
import { createReduckClient, DEFAULT_BASE_URL, type ReduckCredential } from "../../client.js";
import { getMe } from "../../generated/operations.js";
import { BaseCommand } from "../shell/base.js";
import { authWords } from "../shell/cli-words.js";
import { configFile, readConfig, updateConfig, type StoredConfig, type StoredCredential } from "../shell/config.js";
import { CliError, fromReduckError, usageError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { askHidden, readAll } from "../shell/hidden-input.js";
import { cliFetch, connectionSettings, insecureHttpAllowed, refuseInsecureHttp } from "../shell/network.js";

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
    this.warnIfEnvKey();
    const { credential, account, detail } = this.flags["with-api-key"] ? await this.readApiKey(apiUrl) : await this.signInWithOAuth(apiUrl, config);
    const file = configFile();
    await updateConfig((c) => {
      c.credentials = { ...c.credentials, [apiUrl]: credential };
      if ("oauth" in credential && detail.registeredClientId) {
        c.oauthClients = { ...c.oauthClients, [credential.oauth.issuer]: { clientId: detail.registeredClientId } };
      }
      if (this.apiUrlSource === "flag") rememberApiUrl(c, apiUrl);
    });
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

  private warnIfEnvKey(): void {
    if (process.env.REDUCK_API_KEY) {
      this.note("Note: REDUCK_API_KEY is set, and it takes precedence over the sign-in stored here: unset it to use this one.");
    }
  }

  private async readApiKey(apiUrl: string) {
    const apiKey = (process.stdin.isTTY ? await askHidden("API key: ") : await readAll(process.stdin)).trim();
    if (!apiKey) throw usageError("no API key was given: paste one at the prompt, or pipe it in");
    const account = await this.whoIs({ apiKey }, apiUrl, "the API refused that key", "checking the key");
    return { credential: { apiKey } as StoredCredential, account, detail: {} as { registeredClientId?: string } };
  }

  private async signInWithOAuth(apiUrl: string, config: StoredConfig) {
    const browser = this.flags.browser;
    const timeoutMs = this.flags.timeout * 1000;
    let result: Awaited<ReturnType<typeof signInWithBrowser>>;
    try {
      result = await signInWithBrowser({
        apiUrl,
        runUrl: this.runUrl(),
        clientId: this.flags["client-id"],
        rememberedClient: (issuer) => config.oauthClients?.[issuer]?.clientId,
        timeoutMs,
        fetch: cliFetch(),
        present: async (url) => {
          // On stderr even with --json: the person has to see it to sign in.
          writeText(process.stderr, `To sign in to ${apiUrl}, open this link in a browser on this machine:\n\n  ${url}\n\n`);
          if (browser) {
            const problem = await openBrowser(url);
            if (problem) writeText(process.stderr, `Could not open a browser (${problem}): open the link above yourself.\n`);
          }
          process.stderr.write(`Waiting for you to sign in (up to ${durationInWords(timeoutMs)}; Ctrl-C to cancel)...\n`);
        },
      });
    } catch (err) {
      if (err instanceof AuthError) throw new CliError(authWords(err), err.reason === "unreachable" ? ExitCode.FAILED : ExitCode.AUTH);
      throw err;
    }
    const { signIn, registeredClientId } = result;
    const token = signIn.tokens[apiUrl]!.accessToken;
    signIn.account = await this.whoIs({ oauthToken: token }, apiUrl, "the API refused the token it was just given", "checking the sign-in");
    return { credential: { oauth: signIn } as StoredCredential, account: signIn.account, detail: { registeredClientId } };
  }

  /** The account a credential belongs to (`@handle`, else the email), checked with the API. */
  private async whoIs(credential: ReduckCredential, apiUrl: string, refused: string, doing: string): Promise<string> {
    const client = createReduckClient({ ...credential, baseUrl: apiUrl, allowInsecureHttp: insecureHttpAllowed(), ...connectionSettings() });
    const { data: me, error } = await getMe({ client });
    if (error) {
      if (error.status === 401) throw new CliError(`${refused}: ${error.error}`, ExitCode.AUTH);
      throw fromReduckError(error, doing);
    }
    // Remembered as the account signed in, and printed: checked first.
    checkAnswer(me, ME, doing);
    return me.handle ?? me.email;
  }
}

/** `login --api-url X` makes X the URL later commands use; the default needs no remembering. */
function rememberApiUrl(config: StoredConfig, apiUrl: string): void {
  if (apiUrl === DEFAULT_BASE_URL) delete config.apiUrl;
  else config.apiUrl = apiUrl;
}
