/**
 * The contracts `reduck scripts types` makes its module from: each script's current version (or
 * the version --version names) read from the service, or a pulled scripts tree's, offline.
 */
import path from "node:path";
import type { ReduckClient } from "../../core/client.js";
import { getScriptVersion } from "../../generated/operations.js";
import type { ScriptContract } from "../../typegen/module.js";
import { formatAddress } from "../shell/address.js";
import { checkAnswer } from "../shell/answer-check.js";
import { VERSION } from "../shell/answer-shapes.js";
import { CliError, fromReduckError, usageError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { readTree, treeContracts } from "./folder-tree.js";
import { resolveAddress, type ScriptPath } from "./own-handle.js";
import { readScriptOrSuggest } from "./script-lookup.js";
import { checkVersionGiven, resolveVersion } from "./versions.js";

/** The contracts of the scripts these addresses name, one after another, at `version` when given. */
export async function addressContracts(client: ReduckClient, given: readonly string[], version: string | undefined): Promise<ScriptContract[]> {
  const scripts: ScriptContract[] = [];
  for (const text of given) scripts.push(await scriptContract(client, await resolveAddress(client, text), version));
  return scripts;
}

/** Every contract of the scripts tree in `dir`, and the words the module's header records for it (`--from DIR`). */
export async function treeTypesSource(dir: string): Promise<{ scripts: ScriptContract[]; from: string[] }> {
  const from = path.relative(process.cwd(), path.resolve(dir)).split(path.sep).join("/") || ".";
  return { scripts: treeContracts(await readTree(dir)), from: ["--from", from] };
}

/** One script's contract: its current version, or the version `version` names. */
async function scriptContract(client: ReduckClient, scriptPath: ScriptPath, version: string | undefined): Promise<ScriptContract> {
  const address = formatAddress(scriptPath);
  if (version) checkVersionGiven(scriptPath, version);
  const script = await readScriptOrSuggest(client, scriptPath).catch((err: unknown) => {
    // An address that names no script is the caller's input: exit 2, with the did-you-mean.
    if (err instanceof CliError && err.detail.status === 404) throw new CliError(err.message, ExitCode.USAGE, err.detail);
    throw err;
  });
  let chosen = script.current_version;
  if (version) {
    const versionId = await resolveVersion(client, scriptPath, version);
    const read = await getScriptVersion({ client, path: { ...scriptPath, versionId } });
    const doing = `reading ${address} version ${version}`;
    if (read.error) throw fromReduckError(read.error, doing);
    chosen = checkAnswer(read.data, VERSION, doing);
  }
  if (!chosen) {
    throw usageError(`${address} has no current version (only drafts): promote one with \`reduck scripts versions promote\`, or give --version`);
  }
  return {
    ...scriptPath,
    name: script.name,
    description: script.description ?? undefined,
    versionId: chosen.id,
    versionNumber: chosen.version_number,
    inputSchema: chosen.input_schema,
    outputSchema: chosen.output_schema,
  };
}
