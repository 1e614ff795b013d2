/**
 * The base of every command: shared flags, the client, and how failures reach the user
 * (one line on stderr, or one JSON object on stdout with --json, and a documented exit code).
 */
import { format } from "node:util";
import { Command, Flags, type Interfaces } from "@oclif/core";
import { ClientOptionError, createReduckClient, DEFAULT_BASE_URL, DEFAULT_RUN_BASE_URL, type ReduckClient } from "../../core/client.js";
import type { ReduckError } from "../../core/errors.js";
import type { OAuthSignIn } from "../../auth/types.js";
import { redactSecrets } from "../../core/redact.js";
import { retryLine, type RetryInfo } from "./retry-line.js";
import { configSignInStore, readConfig, storedCredential } from "./config.js";
import { clientOptionWords } from "./cli-words.js";
import { cliFetch, connectionSettings, insecureHttpAllowed, refuseInsecureHttp, timeoutFromEnv } from "./network.js";
import { CliError, exitAskedFor, fromReduckError, toCliError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import type { CommandShape } from "./parse-errors.js";
import { terminalText } from "./terminal-text.js";
import { checkAnswer, type Shape } from "./answer-check.js";
import { jsonText } from "./json-text.js";

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)["baseFlags"] & T["flags"]>;
export type BaseArgs<T extends typeof Command> = Interfaces.InferredArgs<T["args"]>;

/** Where the API URL came from: --api-url, REDUCK_API_URL, remembered by `reduck login --api-url`, or the default. */
export type ApiUrlSource = "flag" | "env" | "login" | "default";

/** The credential a command uses, and where it came from. */
export type CredentialInUse = { kind: "apiKey"; source: "flag" | "env" | "login"; apiKey: string } | { kind: "oauth"; source: "login"; signIn: OAuthSignIn };

export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true;

  static override baseFlags = {
    "api-key": Flags.string({
      description: "API key to use. Visible to other users in `ps`: prefer REDUCK_API_KEY or `reduck login`.",
      helpGroup: "GLOBAL",
    }),
    "api-url": Flags.string({
      description: "Catalogue API base URL [env: REDUCK_API_URL] (default https://reduck.ai).",
      helpGroup: "GLOBAL",
    }),
    verbose: Flags.boolean({
      description: "Say on stderr, one line each, when a request is retried and why.",
      helpGroup: "GLOBAL",
    }),
  };

  protected flags!: BaseFlags<T>;
  protected args!: BaseArgs<T>;

  public override async init(): Promise<void> {
    await super.init();
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    }).catch((error: unknown) => {
      // Parsed, and refused (a usage error follows): without this, oclif adds "did not parse its
      // arguments. Did you forget to call 'this.parse'?" whenever NODE_ENV is development or test.
      this.parsed = true;
      throw error;
    });
    this.flags = flags as BaseFlags<T>;
    this.args = args as BaseArgs<T>;
    const given = this.flags["api-url"] || process.env.REDUCK_API_URL;
    if (given) {
      this.resolvedApiUrl = given;
      this.apiUrlSource = this.flags["api-url"] ? "flag" : "env";
    } else {
      // Only now is the config file read: a damaged one stops the command rather than send it elsewhere.
      const remembered = (await readConfig()).apiUrl;
      this.resolvedApiUrl = remembered || DEFAULT_BASE_URL;
      this.apiUrlSource = remembered ? "login" : "default";
    }
    this.resolvedApiUrl = this.resolvedApiUrl.replace(/\/+$/, "");
  }

  private resolvedApiUrl = DEFAULT_BASE_URL;
  protected apiUrlSource: ApiUrlSource = "default";

  /** Where the catalogue API is: --api-url, REDUCK_API_URL, the URL `reduck login --api-url` remembered, or the default. */
  protected apiUrl(): string {
    return this.resolvedApiUrl;
  }

  /** Where runs go: REDUCK_MCP_URL, else the API URL when that was chosen, else the default. */
  protected runUrl(): string {
    const explicitApi = this.apiUrlSource === "default" ? undefined : this.apiUrl();
    return (process.env.REDUCK_MCP_URL || explicitApi || DEFAULT_RUN_BASE_URL).replace(/\/+$/, "");
  }

  private cachedClient?: ReduckClient;
  private cachedCredential?: CredentialInUse;
  /** The API key in use, to redact wherever a message might echo it. */
  private credentialInUse?: string;

  /** The credential: --api-key, REDUCK_API_KEY, or what `reduck login` stored for this API URL, in that order. */
  protected async credential(): Promise<CredentialInUse> {
    const credential = await this.credentialIfAny();
    if (!credential) throw this.notSignedIn();
    return credential;
  }

  private notSignedIn(): CliError {
    return new CliError(`not signed in to ${this.apiUrl()}: set REDUCK_API_KEY or run \`reduck login\``, ExitCode.AUTH);
  }

  /** The credential (see credential()), or undefined when there is none. */
  private async credentialIfAny(): Promise<CredentialInUse | undefined> {
    if (this.cachedCredential) return this.cachedCredential;
    const apiUrl = this.apiUrl();
    const given = this.flags["api-key"] || process.env.REDUCK_API_KEY;
    // The stored sign-in it takes precedence over is read only by whoami, which says so.
    if (given) return (this.cachedCredential = { kind: "apiKey", source: this.flags["api-key"] ? "flag" : "env", apiKey: given });
    const stored = await storedCredential(apiUrl);
    if (!stored) return undefined;
    this.cachedCredential =
      "oauth" in stored ? { kind: "oauth", source: "login", signIn: stored.oauth } : { kind: "apiKey", source: "login", apiKey: stored.apiKey };
    return this.cachedCredential;
  }

  /**
   * The client, with the credential above; an OAuth sign-in's tokens are refreshed as they near
   * expiry. Without a credential, each request fails (exit 4) as it asks for one, after its own
   * checks: an id that is not one is named first (core/path-ids.ts), and nothing is sent either way.
   */
  protected async client(): Promise<ReduckClient> {
    if (this.cachedClient) return this.cachedClient;
    const apiUrl = this.apiUrl();
    const credential = await this.credentialIfAny();
    if (credential) refuseInsecureHttp([apiUrl, this.runUrl()], credential.kind === "apiKey" ? "your API key" : "your sign-in's token");
    let auth: { apiKey: string } | { oauthToken: (request: { resource: string }) => Promise<string> };
    if (!credential) {
      const missing = this.notSignedIn();
      auth = { oauthToken: () => Promise.reject(missing) };
    } else if (credential.kind === "apiKey") {
      auth = { apiKey: credential.apiKey };
    } else {
      // Loaded only for a sign-in: its OAuth library is most of what it weighs.
      const { OAuthSession } = await import("../../auth/session.js");
      const session = new OAuthSession(configSignInStore(apiUrl), Date.now, cliFetch());
      auth = { oauthToken: ({ resource }) => session.accessToken(resource) };
    }
    if (credential?.kind === "apiKey") this.credentialInUse = credential.apiKey;
    try {
      this.cachedClient = createReduckClient({
        ...auth,
        baseUrl: apiUrl,
        runBaseUrl: this.runUrl(),
        timeoutMs: timeoutFromEnv(),
        allowInsecureHttp: insecureHttpAllowed(),
        ...connectionSettings(),
        // Only when asked: a retry that ends in failure would otherwise print lines before the one-line error.
        ...(this.flags.verbose ? { onRetry: (info: RetryInfo) => this.note(retryLine(info)) } : {}),
      });
    } catch (err) {
      if (!(err instanceof ClientOptionError)) throw new CliError((err as Error).message, ExitCode.USAGE);
      throw new CliError(clientOptionWords(err), ExitCode.USAGE);
    }
    return this.cachedClient;
  }

  /**
   * Unwraps a library result, or fails the command with the error's message and exit code; with
   * a `shape`, the data is checked against it first (answer-check.ts: a malformed answer is one
   * clear error naming `doing`).
   */
  protected unwrap<D>(result: { data: D; error: undefined } | { data: undefined; error: ReduckError }, doing?: string, shape?: Shape): D {
    if (result.error) throw fromReduckError(result.error, doing);
    return shape ? checkAnswer(result.data as D, shape, doing ?? "reading the service's answer") : (result.data as D);
  }

  /**
   * What a command prints for people on stdout (nothing with --json), shown as text: a control
   * or bidi character from the service never acts on the terminal (terminal-text.ts).
   */
  override log(message = "", ...args: unknown[]): void {
    super.log(terminalText(format(message, ...args)));
  }

  /** A note for people: stderr, and silent with --json so stdout stays one document. Shown as `log` shows text. */
  protected note(message: string): void {
    if (!this.jsonEnabled()) process.stderr.write(terminalText(`${message}\n`));
  }

  /** Prints data as JSON on stdout (for commands whose output is always JSON). */
  protected printJson(data: unknown): void {
    process.stdout.write(`${jsonText(data)}\n`);
  }

  /**
   * What `--json` prints: the same text as oclif's (which has no colours without a theme), but
   * without running every token of it through its colouriser, which took milliseconds per page.
   */
  override logJson(json: unknown): void {
    this.printJson(json);
  }

  /**
   * oclif's own JSON error dumps the parse context, which includes --api-key and
   * REDUCK_API_KEY. Ours holds the message, the exit code and safe details only.
   */
  protected override toErrorJson(err: unknown): { error: Record<string, unknown> } {
    const e = toCliError(err, this.shape());
    return { error: { message: this.redact(e.message), exitCode: e.exitCode, ...e.detail } };
  }

  /** Neither the credential in use nor anything shaped like a key is ever printed. */
  protected redact(text: string): string {
    const known = [this.credentialInUse, this.flags?.["api-key"], process.env.REDUCK_API_KEY];
    return redactSecrets(
      text,
      known.filter((s): s is string => Boolean(s)),
    );
  }

  /** Every flag the command takes, as oclif defines them (see flagDefinitionsOf). */
  protected flagDefinitions(): Record<string, Interfaces.Flag<unknown>> {
    return flagDefinitionsOf(this.ctor);
  }

  /** The command's id, flags and arguments, for parse errors in the CLI's words. */
  private shape(): CommandShape {
    const flags = Object.keys({ ...this.ctor.baseFlags, ...this.ctor.flags });
    if (this.ctor.enableJsonFlag) flags.push("json");
    const args = Object.entries(this.ctor.args ?? {}).map(([name, arg]) => ({ name, required: Boolean(arg.required) }));
    return { id: (this.id ?? "").split(":").join(" "), flags: [...flags, "help"], args, bin: this.config.bin };
  }

  protected override async catch(err: Error): Promise<void> {
    // this.exit(n) throws an ExitError: just keep its code.
    const asked = exitAskedFor(err);
    if (asked !== undefined) {
      process.exitCode = asked;
      return;
    }
    const e = toCliError(err, this.shape());
    process.exitCode = e.exitCode;
    if (this.jsonEnabled()) {
      process.stdout.write(`${jsonText(this.toErrorJson(e))}\n`);
    } else {
      process.stderr.write(terminalText(`Error: ${this.redact(e.message)}\n`));
    }
    if (process.env.REDUCK_DEBUG && err instanceof Error && !(err instanceof CliError)) process.stderr.write(`${err.stack}\n`);
  }
}

// Kept importable from here, where it always was.
export { toCliError } from "./errors.js";

/**
 * Every flag a command takes (its own, the global ones, --json), as oclif defines them: what
 * reads a command's argv by hand (run-args.ts) reads it by these, so it knows each new flag.
 */
export function flagDefinitionsOf(command: Pick<typeof Command, "baseFlags" | "flags" | "enableJsonFlag">): Record<string, Interfaces.Flag<unknown>> {
  const json = command.enableJsonFlag ? { json: Flags.boolean() } : {};
  return { ...command.baseFlags, ...command.flags, ...json } as Record<string, Interfaces.Flag<unknown>>;
}
