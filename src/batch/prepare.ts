/**
 * Rows into runs: the script's contract read once, then each row turned into the arguments and
 * files of one run (coerced to the contract's types as `name=value` is), or into the list of
 * what is wrong with it, and the row's key.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { ReduckClient } from "../core/client.js";
import type { ReduckError, ReduckErrorCode } from "../core/errors.js";
import { applyContract, typedValueProblem } from "../core/words/arguments.js";
import { canonical, jsonSchemaOf, type JsonSchema } from "../core/json.js";
import { getMe, getScript, getScriptVersion } from "../generated/operations.js";
import { FileProblem, checkPathFileOnly } from "../run/files.js";
import { ROW_PROBLEM, type RowValues } from "./rows.js";
import { inShard, type Shard } from "./shard.js";

/** The script a batch runs, as the service names it. */
export interface BatchScript {
  handle: string;
  host: string;
  slug: string;
  /** `handle/host/slug`. */
  address: string;
  /** The script's id (runs are looked up by it). */
  scriptId: string;
  /** The version every row runs: the current one, or the one asked for. */
  versionId: string;
  /** Sent as `version_id` only when a version was asked for. */
  pinned: boolean;
  inputSchema: JsonSchema;
}

export type ContractResult = { data: BatchScript; error: undefined } | { data: undefined; error: ReduckError };

/**
 * Reads a script's contract once for a whole batch. `address` is `[handle/]host/slug` (no
 * handle: your own) or its parts; `versionId` pins a version instead of the current one.
 *
 * @example
 * const { data: script, error } = await readBatchScript(client, "reduck/mail.google.com/send_email");
 */
export async function readBatchScript(
  client: ReduckClient,
  address: string | { handle?: string; host: string; slug: string },
  versionId?: string,
): Promise<ContractResult> {
  const invalid = (error: string, code: ReduckErrorCode = "invalid_options"): ContractResult => ({
    data: undefined,
    error: { kind: "invalid_request", code, error },
  });
  let parts: { handle?: string; host: string; slug: string };
  if (typeof address === "string") {
    const pieces = address.split("/");
    if (pieces.length < 2 || pieces.length > 3 || pieces.some((p) => !p))
      return invalid(`${JSON.stringify(address)} is not a script address: expected [handle/]host/slug`);
    parts = pieces.length === 3 ? { handle: pieces[0], host: pieces[1]!, slug: pieces[2]! } : { host: pieces[0]!, slug: pieces[1]! };
  } else parts = address;
  let handle = parts.handle;
  if (!handle) {
    const me = await getMe({ client });
    if (me.error) return { data: undefined, error: me.error };
    if (!me.data.handle) return invalid("your account has no username yet, so it has no scripts of its own: give the handle in the address", "no_handle");
    handle = me.data.handle;
  }
  const where = { handle, host: parts.host, slug: parts.slug };
  const label = `${handle}/${parts.host}/${parts.slug}`;
  const script = await getScript({ client, path: where });
  if (script.error) return { data: undefined, error: { ...script.error, error: `reading ${label}: ${script.error.error}` } };
  let version: { id: string; input_schema?: Record<string, unknown> } | null = script.data.current_version;
  if (versionId) {
    const read = await getScriptVersion({ client, path: { ...where, versionId } });
    if (read.error) return { data: undefined, error: { ...read.error, error: `reading ${label} version ${versionId}: ${read.error.error}` } };
    version = read.data;
  }
  if (!version) return invalid(`${label} has no current version to run: promote one, or give a version`, "no_current_version");
  return {
    data: {
      ...where,
      address: label,
      scriptId: script.data.id,
      versionId: version.id,
      pinned: Boolean(versionId),
      inputSchema: jsonSchemaOf(version.input_schema) ?? {},
    },
    error: undefined,
  };
}

/** A row ready to send. */
export interface PreparedRow {
  row: number;
  key: string;
  args: Record<string, unknown>;
  /** Absolute paths, by file input. */
  files: Record<string, string>;
}

export type RowCheck = { ok: true; row: number; key: string; prepared: PreparedRow } | { ok: false; row: number; key: string; problems: string[] };

export interface PrepareOptions {
  /** `name=value` and `file:<input>=<path>` that apply to every row (a row that sets one too is refused). */
  shared?: RowValues;
  /** Relative `file:` paths in rows are relative to this folder (the input file's). Default: the working folder. */
  filesRelativeTo?: string;
  /** Without keys (a dry run that resumes nothing): memory then stays flat however many rows. */
  keys?: boolean;
  /** A further check of the coerced arguments (the CLI checks them against the whole JSON Schema). */
  check?: (args: Record<string, unknown>, fileInputs: string[]) => Promise<string[]>;
  /**
   * Run only shard `index` of `count` (1-based): the rows whose values hash to it (shard.ts), so
   * `count` machines given the same input run every row once between them. Rows keep their
   * numbers in the whole input.
   */
  shard?: Shard;
}

/**
 * Turns rows into runs, numbering them and giving each its key: a hash of the script address,
 * its version and the row's values (with the shared ones), plus which occurrence of those
 * values it is, so two identical rows are two runs and an edited or reordered file still
 * resumes correctly.
 */
export class RowPreparer {
  private number = 0;
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly script: BatchScript,
    private readonly options: PrepareOptions = {},
  ) {}

  /** The row's check, or undefined for a row of another shard (numbered, never checked). */
  async prepare(values: RowValues): Promise<RowCheck | undefined> {
    const row = ++this.number;
    if (!inShard(values, this.options.shard)) return undefined;
    const shared = this.options.shared ?? {};
    const merged = { ...shared, ...values };
    // Only a row that could not be read has it (a delete turns the object into a slower, bigger one).
    if (ROW_PROBLEM in merged) delete merged[ROW_PROBLEM];
    let key = "";
    if (this.options.keys !== false) {
      const base = createHash("sha256")
        .update(canonical([this.script.address, this.script.versionId, merged]))
        .digest("hex")
        .slice(0, 32);
      const occurrence = (this.seen.get(base) ?? 0) + 1;
      this.seen.set(base, occurrence);
      key = occurrence === 1 ? base : `${base}.${occurrence}`;
    }

    if (typeof values[ROW_PROBLEM] === "string") return { ok: false, row, key, problems: [values[ROW_PROBLEM] as string] };
    const problems: string[] = [];
    const clash = Object.keys(values).filter((name) => name in shared);
    if (clash.length) {
      problems.push(
        `sets ${clash.join(", ")}, which the command line already sets for every row: remove ${clash.length > 1 ? "them" : "it"} from the row or from the command line`,
      );
    }
    const step: { values: Array<[string, string]>; files: Array<[string, string]> } = { values: [], files: [] };
    /** Inputs whose JSON type is already refused: the coercion's own word on them would say it twice. */
    const wrongTyped = new Set<string>();
    for (const [name, value] of Object.entries(merged)) {
      if (name.startsWith("file:")) {
        const input = name.slice("file:".length);
        if (typeof value !== "string" || !value) {
          problems.push(`${name} must be a file's path`);
          continue;
        }
        const fromShared = name in shared && !(name in values);
        step.files.push([input, fromShared ? path.resolve(value) : path.resolve(this.options.filesRelativeTo ?? ".", value)]);
      } else {
        // JSONL values are typed already: one of a type the input does not take is refused (an
        // object is never sent as its JSON text); the others, as JSON text, coerce back to themselves.
        const wrongType = typedValueProblem(name, value, this.script.inputSchema.properties?.[name]);
        if (wrongType) {
          problems.push(wrongType);
          wrongTyped.add(name);
        }
        step.values.push([name, typeof value === "string" ? value : JSON.stringify(value)]);
      }
    }
    const applied = applyContract(step, this.script.inputSchema);
    const args = applied.args;
    problems.push(...applied.problems.filter((p) => ![...wrongTyped].some((name) => p.startsWith(`${name} must be `))));
    for (const [input, file] of Object.entries(applied.files)) {
      try {
        await checkPathFileOnly(input, file);
      } catch (err) {
        if (err instanceof FileProblem) problems.push(err.message);
        else throw err;
      }
    }
    if (!problems.length && this.options.check) problems.push(...(await this.options.check(args, applied.fileInputs)));
    if (problems.length) return { ok: false, row, key, problems };
    return { ok: true, row, key, prepared: { row, key, args, files: applied.files } };
  }
}
