/**
 * The base of every command: shared flags, the client, and how failures reach the user
 * (one line on stderr, or one JSON object on stdout with --json, and a documented exit code).
 */
import { Command, Flags, type Interfaces } from "@oclif/core";
import { createReduckClient, DEFAULT_BASE_URL, DEFAULT_RUN_BASE_URL, type ReduckClient } from "../client.js";
import type { ReduckError } from "../core/errors.js";
import { storedKey } from "./config.js";
import { inCliWords } from "./cli-words.js";
import { CliError, fromReduckError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import { rewriteParseError, type CommandShape } from "./parse-errors.js";

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
    try {
      this.cachedClient = createReduckClient({
        apiKey,
        baseUrl: apiUrl,
        runBaseUrl: this.runUrl(),
        onRetry: (info) => this.note(`${info.reason}: retrying in ${(info.delayMs / 1000).toFixed(1)} s (attempt ${info.attempt})`),
      });
    } catch (err) {
      throw new CliError(inCliWords((err as Error).message.replace(/^createReduckClient: /, "")), ExitCode.USAGE);
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
    const e = toCliError(err, this.shape());
    return { error: { message: e.message, exitCode: e.exitCode, ...e.detail } };
  }

  /** The command's id, flags and arguments, for parse errors in the CLI's words. */
  private shape(): CommandShape {
    const flags = Object.keys({ ...this.ctor.baseFlags, ...this.ctor.flags });
    if (this.ctor.enableJsonFlag) flags.push("json");
    const args = Object.entries(this.ctor.args ?? {}).map(([name, arg]) => ({ name, required: Boolean(arg.required) }));
    return { id: (this.id ?? "").split(":").join(" "), flags: [...flags, "help"], args, bin: this.config.bin };
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<void> {
    // this.exit(n) throws an ExitError: just keep its code.
    if (err?.oclif?.exit !== undefined && err.name === "ExitError") {
      process.exitCode = err.oclif.exit;
      return;
    }
    const e = toCliError(err, this.shape());
    process.exitCode = e.exitCode;
    if (this.jsonEnabled()) {
      process.stdout.write(`${JSON.stringify(this.toErrorJson(e), null, 2)}\n`);
    } else {
      process.stderr.write(`Error: ${e.message}\n`);
    }
    if (process.env.REDUCK_DEBUG && err instanceof Error && !(err instanceof CliError)) process.stderr.write(`${err.stack}\n`);
  }
}

/**
 * Anything thrown becomes a CliError; parse errors are usage errors (exit 2, with or without
 * --json), in the CLI's words when the command is known.
 */
export function toCliError(err: unknown, shape?: CommandShape): CliError {
  if (err instanceof CliError) return err;
  const e = err as Error & { oclif?: { exit?: number }; parse?: unknown };
  if (e && (e.parse !== undefined || e.oclif?.exit === 2)) {
    const rewritten = shape && rewriteParseError(String(e.message ?? err), shape);
    const message = rewritten ?? String(e.message ?? err).split("\n").filter(Boolean).join(" ");
    return new CliError(message.replace(/\s+/g, " ").trim(), ExitCode.USAGE);
  }
  return new CliError(`unexpected failure: ${e?.message ?? String(err)} (set REDUCK_DEBUG=1 for details)`, ExitCode.FAILED);
}
