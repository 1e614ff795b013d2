/**
 * A version as people name it: its number from `reduck scripts versions list` (1, 2, ...) or
 * its id. Numbers are resolved through the script's version list.
 */
import { Args, Flags } from "@oclif/core";
import type { ReduckClient } from "../../core/client.js";
import { isIdOf } from "../../core/id-shapes.js";
import { quotedId } from "../../core/path-ids.js";
import { listScriptVersions } from "../../generated/operations.js";
import { paginateToArray } from "../../paginate.js";
import { formatAddress } from "../shell/address.js";
import { CliError, usageError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { resolveAddress, type ScriptPath } from "./own-handle.js";
import { scriptCallError } from "./script-lookup.js";
import { checkAnswer, list } from "../shell/answer-check.js";
import { VERSION_SUMMARY } from "../shell/answer-shapes.js";

/** The positional VERSION argument of the versions commands. */
export function versionArg(what: string) {
  return Args.string({ description: `${what}: its number (see \`reduck scripts versions list ADDRESS\`) or its id.`, required: true });
}

/** `--version` (number or id) alone, for commands the official CLI has no word for; `--version-id` still works. */
export function versionFlag(description: string) {
  return Flags.string({
    description: `${description} A version number (see \`reduck scripts versions list ADDRESS\`) or id.`,
    aliases: ["version-id"],
    helpValue: "VERSION",
  });
}

/**
 * `--version` (number or id), and `--version-id`: the official CLI's name for the same choice,
 * shown in help so people who come from it find their word.
 */
export function versionFlags(description: string) {
  return {
    version: Flags.string({
      description: `${description} A version number (see \`reduck scripts versions list ADDRESS\`) or id.`,
      helpValue: "VERSION",
      exclusive: ["version-id"],
    }),
    "version-id": Flags.string({
      description: "The official CLI's word for --version: a version id (a number works too).",
      helpValue: "ID",
      exclusive: ["version"],
    }),
  };
}

/** The version asked for, by either of the two flags above. */
export function chosenVersion(flags: { version?: string; "version-id"?: string }): string | undefined {
  return flags.version ?? flags["version-id"];
}

/**
 * Refuses (exit 2, `invalid_id`) a version that is neither a number to look up nor an id the
 * library would put into the version's URL (core/path-ids.ts), before anything is sent.
 *
 * @example
 * checkVersionGiven({ handle: "@demo", host: "example.com", slug: "get_title" }, "latest"); // throws: "latest" is not a version number or id ...
 */
export function checkVersionGiven(path: ScriptPath, given: string): void {
  if (isIdOf("version id", given) || /^\d+$/.test(given)) return;
  const where = `see \`reduck scripts versions list ${formatAddress(path)}\``;
  throw new CliError(`${quotedId(given)} is not a version number or id (a UUID): ${where}`, ExitCode.USAGE, { kind: "invalid_request", code: "invalid_id" });
}

/**
 * The id of the version `given` names: an id as it is, a number looked up in the script's
 * versions. A malformed value or an unknown number is a usage error (exit 2) that says where
 * the numbers are.
 *
 * @example
 * await resolveVersion(client, { handle: "@demo", host: "example.com", slug: "get_title" }, "2"); // "00000000-0000-4000-8004-000000000002"
 */
export async function resolveVersion(client: ReduckClient, path: ScriptPath, given: string): Promise<string> {
  const address = formatAddress(path);
  const where = `see \`reduck scripts versions list ${address}\``;
  if (isIdOf("version id", given)) return given;
  checkVersionGiven(path, given);
  const number = Number(given);
  const doing = `reading the versions of ${address}`;
  const versions = await paginateToArray(listScriptVersions, { client, path, query: { pageSize: 100 } });
  if (versions.error) throw await scriptCallError(client, path, versions.error, doing);
  const found = checkAnswer(versions.data, list(VERSION_SUMMARY), doing).find((v) => v.version_number === number);
  if (!found) {
    const known = versions.data.map((v) => v.version_number).sort((a, b) => a - b);
    const range = known.length ? ` (its versions: ${known.length > 10 ? `${known.slice(0, 10).join(", ")}, ...` : known.join(", ")})` : "";
    throw usageError(`${address} has no version ${number}${range}: ${where}`);
  }
  return found.id;
}

/**
 * What a `scripts versions get|promote|delete|update ADDRESS VERSION` command names: the script's
 * path (the caller's own handle filled in), its address as printed, and the version's id.
 */
export async function resolveScriptVersion(client: ReduckClient, address: string, version: string) {
  const path = await resolveAddress(client, address);
  return { path, address: formatAddress(path), versionId: await resolveVersion(client, path, version) };
}
