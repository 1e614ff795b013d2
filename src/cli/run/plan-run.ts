/**
 * `reduck run`'s command line made ready to send: the steps (`--script ADDRESS name=value ...`),
 * where they run, and each script's contract read and its arguments checked against it. Every
 * local mistake (a flag that does not fit, a file that is missing) is said before the network is
 * used, and every argument is checked before anything is uploaded: a refused run still counts
 * against the quota.
 */
import type { ReduckClient } from "../../core/client.js";
import { openRunConnectionAhead } from "../../core/client-requests.js";
import { applyContract } from "../../core/words/arguments.js";
import { jsonSchemaOf, type JsonSchema } from "../../core/json.js";
import { getScriptVersion } from "../../generated/operations.js";
import { FileProblem, checkPathFile, type PathFile } from "../../run/files.js";
import type { RunBrowser, ScriptToRun } from "../../run/run.js";
import { resolveAddress, withBareSlugHint } from "../scripts/own-handle.js";
import { readScriptOrSuggest } from "../scripts/script-lookup.js";
import { chosenVersion, resolveVersion } from "../scripts/versions.js";
import { formatAddress } from "../shell/address.js";
import { checkAnswer } from "../shell/answer-check.js";
import { RUNNABLE_SCRIPT, VERSION } from "../shell/answer-shapes.js";
import { CliError, fromReduckError, usageError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { writeText } from "../shell/terminal-text.js";
import { browserOf } from "./browser-flag.js";
import { checkOutDir } from "./downloads.js";
import { fileNameNotes } from "./file-name-notes.js";
import type { RunProgress } from "./run-progress.js";
import { expandHome, groupSteps, type CommandLine, type StepArgs } from "./run-args.js";
import { schemaProblems } from "./validate-args.js";

/** The flags of `reduck run` this module reads. */
export interface RunFlags {
  browser?: string;
  device?: string;
  region?: string;
  country?: string;
  "wait-for-seconds"?: number;
  wait: boolean;
  sequential?: boolean;
  out?: string;
  version?: string;
  "version-id"?: string;
}

/** What `reduck run` was given, and how it reaches the service and the user. */
export type RunCommandLine = CommandLine<RunFlags>;

/** A step ready to send, with what the CLI needs to report on it. */
export interface PreparedStep {
  script: ScriptToRun;
  label: string;
  outputSchema?: JsonSchema;
}

/** The runs to send, and what the command line chose about them. */
export interface RunPlan {
  client: ReduckClient;
  steps: PreparedStep[];
  browser: RunBrowser;
  /** --out, checked: the folder a result's files are saved into. */
  out?: string;
}

/**
 * Checks the command line and reads every step's contract.
 *
 * @example
 * const plan = await planRun({ argv: this.argv, flagDefinitions: this.flagDefinitions(), flags: this.flags, client: () => this.client(), note }, RunProgress.preparing());
 */
export async function planRun(line: RunCommandLine, progress: RunProgress): Promise<RunPlan> {
  const { flags } = line;
  let steps: StepArgs[];
  try {
    steps = groupSteps(line.argv, line.flagDefinitions);
  } catch (err) {
    throw await withBareSlugHint(err, line.client);
  }
  progress.runs(steps.map((step) => formatAddress(step.address)));
  const version = chosenVersion(flags);
  if (version && steps.length > 1) throw usageError("--version applies to one script: give a single --script with it");
  const browser = browserOf(flags.browser, flags.device);
  for (const flag of ["region", "country"] as const) {
    if (flags[flag] && browser !== "cloud")
      throw usageError(
        `--${flag} chooses where a cloud browser runs, so it needs --browser cloud (this run would go to ${typeof browser === "object" ? `device ${browser.deviceId}` : "your own browser"})`,
      );
  }
  if (flags.country && !/^[A-Za-z]{2}$/.test(flags.country))
    throw usageError(`--country takes a two-letter ISO 3166 code such as DE or US (got ${JSON.stringify(flags.country)})`);
  if (flags.sequential && steps.length < 2) line.note("--sequential has no effect with a single --script");
  const out = flags.out ? await checkOutDir(expandHome(flags.out)) : undefined;

  // Local files first: a typo in a path needs no network, nor even a credential, to report. Each
  // checked file is the one the run sends (the run module checks nothing twice).
  const checked: StepArgs<PathFile>[] = [];
  for (const step of steps) {
    const files: Array<[string, PathFile]> = [];
    for (const [input, file] of step.files) files.push([input, await checkLocalFile(input, file)]);
    checked.push({ ...step, files });
  }
  const client = await line.client();
  const reading = Promise.all(checked.map((step) => prepareStep(client, step, version)));
  // The run's own connection is opened while the contracts are read, once their requests have
  // left: its handshake is then off the run's path (a round trip or two over the internet).
  const ahead = setImmediate(() => openRunConnectionAhead(client));
  const prepared = await reading.finally(() => clearImmediate(ahead));
  return { client, steps: prepared, browser, ...(out ? { out } : {}) };
}

/** Reads the script's contract and turns the step's arguments into a run reference. */
async function prepareStep(client: ReduckClient, step: StepArgs<PathFile>, version: string | undefined): Promise<PreparedStep> {
  const path = await resolveAddress(client, step.address);
  const label = formatAddress(step.address);
  let contract: { input_schema?: unknown; output_schema?: unknown };
  let versionId: string | undefined;
  if (version) {
    versionId = await resolveVersion(client, path, version);
    const doing = `reading ${label} version ${version}`;
    const read = await getScriptVersion({ client, path: { ...path, versionId } });
    if (read.error) throw fromReduckError(read.error, doing);
    contract = checkAnswer(read.data, VERSION, doing) as typeof contract;
  } else {
    const script = await readScriptOrSuggest(client, path, !step.address.handle, RUNNABLE_SCRIPT);
    if (!script.current_version) throw new CliError(`${label} has no current version to run: promote one, or pass --version`, ExitCode.FAILED);
    contract = script.current_version as typeof contract;
  }
  const inputSchema = jsonSchemaOf(contract.input_schema) ?? {};
  const { args, files, fileInputs, problems } = applyContract(step, inputSchema);
  problems.push(...(await schemaProblems(inputSchema, args, fileInputs)));
  if (problems.length) throw usageError(`${label}: ${problems.join("; ")}`);
  // stderr even with --json: stdout stays one document, and the surprise is worth saying.
  const paths = Object.fromEntries(Object.entries(files).map(([input, file]) => [input, file.path]));
  for (const note of fileNameNotes(inputSchema, args, paths)) writeText(process.stderr, `${note}\n`);
  return {
    label,
    outputSchema: jsonSchemaOf(contract.output_schema),
    script: {
      handle: path.handle,
      host: step.address.host,
      slug: step.address.slug,
      args,
      ...(Object.keys(files).length ? { files } : {}),
      ...(versionId ? { version_id: versionId } : {}),
    },
  };
}

/**
 * A file to upload: it exists, is readable and is within the limit, in exact numbers. Checked
 * by the run module's own check, whose result the run uses (nothing is checked twice), and
 * worded by it too, so the CLI and the library say one thing.
 */
async function checkLocalFile(input: string, file: string): Promise<PathFile> {
  try {
    return await checkPathFile(input, file);
  } catch (err) {
    if (err instanceof FileProblem) throw usageError(err.message);
    throw err;
  }
}
