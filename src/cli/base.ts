/**
 * The base of every command: shared flags, the client, and how failures reach the user
 * (one line on stderr, or one JSON object on stdout with --json, and a documented exit code).
 */
import { Command, Flags, type Interfaces } from "@oclif/core";
import { createReduckClient, DEFAULT_BASE_URL, DEFAULT_RUN_BASE_URL, type ReduckClient } from "../client.js";
import type { ReduckError } from "../core/errors.js";
import { redactSecrets } from "../core/redact.js";
import { storedKey } from "./config.js";
import { CliError, fromReduckError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)["baseFlags"] & T["flags"]>;
export type BaseArgs<T extends typeof Command> = Interfaces.InferredArgs<T["args"]>;

export interface CredentialSource {
  source: "flag" | "env" | "login";
}

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
    });
    this.flags = flags as BaseFlags<T>;
    this.args = args as BaseArgs<T>;
  }

  /** Where the catalogue API is: flag, then REDUCK_API_URL, then the default. */
  protected apiUrl(): string {
    return (this.flags["api-url"] || process.env.REDUCK_API_URL || DEFAULT_BASE_URL).replace(/\/+$/, "");
  }

  /** Where runs go: REDUCK_MCP_URL, else the API URL when that was overridden, else the default. */
  protected runUrl(): string {
    const explicitApi = this.flags["api-url"] || process.env.REDUCK_API_URL;
    return (process.env.REDUCK_MCP_URL || explicitApi || DEFAULT_RUN_BASE_URL).replace(/\/+$/, "");
  }

  private cachedClient?: ReduckClient;
  private credentialInUse?: string;
  protected credentialSource?: CredentialSource["source"];

  /** The client, with the key from --api-key, REDUCK_API_KEY or the stored login, in that order. */
  protected async client(): Promise<ReduckClient> {
    if (this.cachedClient) return this.cachedClient;
    const apiUrl = this.apiUrl();
    let apiKey = this.flags["api-key"];
    this.credentialSource = "flag";
    if (!apiKey && process.env.REDUCK_API_KEY) {
      apiKey = process.env.REDUCK_API_KEY;
      this.credentialSource = "env";
    }
    if (!apiKey) {
      apiKey = await storedKey(apiUrl);
      this.credentialSource = "login";
    }
    if (!apiKey) {
      throw new CliError(`not signed in to ${apiUrl}: set REDUCK_API_KEY or run \`reduck login\``, ExitCode.AUTH);
    }
    this.credentialInUse = apiKey;
    try {
      this.cachedClient = createReduckClient({
        apiKey,
        baseUrl: apiUrl,
        runBaseUrl: this.runUrl(),
        timeoutMs: timeoutFromEnv(),
        onRetry: (info) => this.note(`${info.reason}: retrying in ${(info.delayMs / 1000).toFixed(1)} s (attempt ${info.attempt})`),
      });
    } catch (err) {
      throw new CliError((err as Error).message.replace(/^createReduckClient: /, ""), ExitCode.USAGE);
    }
    return this.cachedClient;
  }

  /** Unwraps a library result, or fails the command with the error's message and exit code. */
  protected unwrap<D>(result: { data: D; error: undefined } | { data: undefined; error: ReduckError }, doing?: string): D {
    if (result.error) throw fromReduckError(result.error, doing);
    return result.data as D;
  }

  /** A note for people: stderr, and silent with --json so stdout stays one document. */
  protected note(message: string): void {
    if (!this.jsonEnabled()) process.stderr.write(`${message}\n`);
  }

  /** Prints data as JSON on stdout (for commands whose output is always JSON). */
  protected printJson(data: unknown): void {
    process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  }

  /**
   * oclif's own JSON error dumps the parse context, which includes --api-key and
   * REDUCK_API_KEY. Ours holds the message, the exit code and safe details only.
   */
  protected override toErrorJson(err: unknown): { error: Record<string, unknown> } {
    const e = toCliError(err);
    return { error: { message: this.redact(e.message), exitCode: e.exitCode, ...e.detail } };
  }

  /** Neither the credential in use nor anything shaped like a key is ever printed. */
  protected redact(text: string): string {
    const known = [this.credentialInUse, this.flags?.["api-key"], process.env.REDUCK_API_KEY];
    return redactSecrets(text, known.filter((s): s is string => Boolean(s)));
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<void> {
    // this.exit(n) throws an ExitError: just keep its code.
    if (err?.oclif?.exit !== undefined && err.name === "ExitError") {
      process.exitCode = err.oclif.exit;
      return;
    }
    const e = toCliError(err);
    process.exitCode = e.exitCode;
    if (this.jsonEnabled()) {
      process.stdout.write(`${JSON.stringify(this.toErrorJson(e), null, 2)}\n`);
    } else {
      process.stderr.write(`Error: ${this.redact(e.message)}\n`);
    }
    if (process.env.REDUCK_DEBUG && err instanceof Error && !(err instanceof CliError)) process.stderr.write(`${err.stack}\n`);
  }
}

/**
 * REDUCK_TIMEOUT_MS: the per-request timeout of catalogue calls (default 60000; 0 = none), for
 * scripts and tests that must not wait a minute for a server that does not answer.
 */
function timeoutFromEnv(): number | undefined {
  const value = process.env.REDUCK_TIMEOUT_MS;
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value.trim())) throw new CliError(`REDUCK_TIMEOUT_MS must be a whole number of milliseconds (0 for none), got ${JSON.stringify(value)}`, ExitCode.USAGE);
  return Number(value);
}

/** Anything thrown becomes a CliError; parse errors are usage errors (exit 2, with or without --json). */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  const e = err as Error & { oclif?: { exit?: number }; parse?: unknown };
  if (e && (e.parse !== undefined || e.oclif?.exit === 2)) {
    const message = String(e.message ?? err).split("\n").filter(Boolean);
    return new CliError(message.join(" ").replace(/\s+/g, " ").trim(), ExitCode.USAGE);
  }
  return new CliError(`unexpected failure: ${e?.message ?? String(err)} (set REDUCK_DEBUG=1 for details)`, ExitCode.FAILED);
}
