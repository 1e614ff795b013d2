/**
 * What `reduck login` does once its flags are read: a credential from an API key typed or piped
 * in, or from a sign-in in the browser; the account it belongs to, checked with the API; and the
 * config file updated with it.
 */
import { openBrowser } from "../../auth/browser.js";
import { signInWithBrowser } from "../../auth/sign-in.js";
import { AuthError } from "../../auth/types.js";
import { createReduckClient, DEFAULT_BASE_URL, type ReduckCredential } from "../../core/client.js";
import { durationInWords } from "../../core/duration.js";
import { getMe } from "../../generated/operations.js";
import { checkAnswer } from "../shell/answer-check.js";
import { ME } from "../shell/answer-shapes.js";
import { authWords } from "../shell/cli-words.js";
import { updateConfig, type StoredConfig, type StoredCredential } from "../shell/config.js";
import { CliError, fromReduckError, usageError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { askHidden, readAll } from "../shell/hidden-input.js";
import { cliFetch, connectionSettings, insecureHttpAllowed } from "../shell/network.js";
import { writeText } from "../shell/terminal-text.js";

/** A credential to store, the account it belongs to, and the OAuth client registered for it, if one was. */
export interface SignedIn {
  credential: StoredCredential;
  account: string;
  registeredClientId?: string;
}

/** How to sign in with OAuth, from `reduck login`'s flags. */
export interface BrowserSignIn {
  apiUrl: string;
  runUrl: string;
  clientId?: string;
  /** Open the link in a browser (else only print it). */
  browser: boolean;
  timeoutMs: number;
}

/** An API key from a hidden prompt or stdin, checked with the API. */
export async function signInWithApiKey(apiUrl: string): Promise<SignedIn> {
  const apiKey = (process.stdin.isTTY ? await askHidden("API key: ") : await readAll(process.stdin)).trim();
  if (!apiKey) throw usageError("no API key was given: paste one at the prompt, or pipe it in");
  const account = await whoIs({ apiKey }, apiUrl, "the API refused that key", "checking the key");
  return { credential: { apiKey }, account };
}

/** A sign-in in the browser (the link printed on stderr, and opened unless told not to), checked with the API. */
export async function signInWithOAuth(how: BrowserSignIn, config: StoredConfig): Promise<SignedIn> {
  const { apiUrl, timeoutMs } = how;
  let result: Awaited<ReturnType<typeof signInWithBrowser>>;
  try {
    result = await signInWithBrowser({
      apiUrl,
      runUrl: how.runUrl,
      clientId: how.clientId,
      rememberedClient: (issuer) => config.oauthClients?.[issuer]?.clientId,
      timeoutMs,
      fetch: cliFetch(),
      present: async (url) => {
        // On stderr even with --json: the person has to see it to sign in.
        writeText(process.stderr, `To sign in to ${apiUrl}, open this link in a browser on this machine:\n\n  ${url}\n\n`);
        if (how.browser) {
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
  signIn.account = await whoIs({ oauthToken: token }, apiUrl, "the API refused the token it was just given", "checking the sign-in");
  return { credential: { oauth: signIn }, account: signIn.account, registeredClientId };
}

/**
 * Stores the credential for `apiUrl` (with the OAuth client registered for its issuer); with
 * `remember`, `apiUrl` also becomes the URL later commands use (the default needs no remembering).
 */
export async function storeSignIn(apiUrl: string, { credential, registeredClientId }: SignedIn, remember: boolean): Promise<void> {
  await updateConfig((c) => {
    c.credentials = { ...c.credentials, [apiUrl]: credential };
    if ("oauth" in credential && registeredClientId) {
      c.oauthClients = { ...c.oauthClients, [credential.oauth.issuer]: { clientId: registeredClientId } };
    }
    if (!remember) return;
    if (apiUrl === DEFAULT_BASE_URL) delete c.apiUrl;
    else c.apiUrl = apiUrl;
  });
}

/** The account a credential belongs to (`@handle`, else the email), checked with the API. */
async function whoIs(credential: ReduckCredential, apiUrl: string, refused: string, doing: string): Promise<string> {
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
