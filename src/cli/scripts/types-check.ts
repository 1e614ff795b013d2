/**
 * `reduck scripts types --check`: each script a module's header records, its recorded version
 * against its current one, and what changed in its inputs and result when it moved on.
 */
import { readFile } from "node:fs/promises";
import type { ReduckClient } from "../../core/client.js";
import { getScript, getScriptVersion } from "../../generated/operations.js";
import { inputChanges } from "../../typegen/drift.js";
import { declaresStrict, recordedVersions, type RecordedVersion } from "../../typegen/module.js";
import { parseAddress } from "../shell/address.js";
import { checkAnswer } from "../shell/answer-check.js";
import { SCRIPT, VERSION } from "../shell/answer-shapes.js";
import { fromReduckError, usageError } from "../shell/errors.js";
import type { ScriptPath } from "./own-handle.js";
import { DEFAULT_TYPES_OUT } from "./types-module.js";

/** One script of a `--check`: still at its recorded version, moved on, or gone. */
export interface CheckedScript {
  address: string;
  status: "current" | "moved" | "missing";
  recorded: { versionNumber: number; versionId: string };
  current?: { versionNumber: number; versionId: string };
  /** What changed in its inputs, one line each (moved only). */
  inputChanges?: string[];
  /** Whether its result type changed (moved only). */
  resultChanged?: boolean;
}

/** A `--check`: the command's answer with --json. */
export interface TypesCheck {
  file: string;
  upToDate: boolean;
  scripts: CheckedScript[];
}

/**
 * Checks the module `out` against the service, and says so for people (`lines`). The file is read
 * before `client` is asked for: a missing module is said before a missing login.
 */
export async function checkTypesModule(out: string, client: () => Promise<ReduckClient>): Promise<{ report: TypesCheck; lines: string[] }> {
  let text: string;
  try {
    text = await readFile(out, "utf8");
  } catch {
    throw usageError(`${out} cannot be read: make it with \`reduck scripts types ADDRESS... --out ${out}\`, or name it with --out`);
  }
  const recorded = recordedVersions(text);
  if (recorded.length === 0) throw usageError(`${out} names no scripts in its header: it was not made by \`reduck scripts types\``);
  const reader = await client();
  const results: CheckedScript[] = [];
  for (const r of recorded) results.push(await checkOne(reader, r));
  const moved = results.filter((r) => r.status !== "current");
  const lines = results.map(describe);
  if (moved.length) {
    const addresses = results.filter((r) => r.status !== "missing").map((r) => r.address);
    lines.push(
      `\nRegenerate with: reduck scripts types ${addresses.join(" ")}${out === DEFAULT_TYPES_OUT ? "" : ` --out ${out}`}${declaresStrict(text) ? " --strict" : ""}`,
    );
  }
  return { report: { file: out, upToDate: moved.length === 0, scripts: results }, lines };
}

async function checkOne(client: ReduckClient, r: RecordedVersion): Promise<CheckedScript> {
  const scriptPath = parseAddress(r.address) as ScriptPath;
  const recorded = { versionNumber: r.versionNumber, versionId: r.versionId };
  const read = await getScript({ client, path: scriptPath });
  if (read.error) {
    if (read.error.status === 404) return { address: r.address, status: "missing", recorded };
    throw fromReduckError(read.error, `reading ${r.address}`);
  }
  const now = checkAnswer(read.data, SCRIPT, `reading ${r.address}`).current_version;
  if (now && now.id === r.versionId) return { address: r.address, status: "current", recorded };
  if (!now) return { address: r.address, status: "missing", recorded };
  const current = { versionNumber: now.version_number, versionId: now.id };
  const before = await getScriptVersion({ client, path: { ...scriptPath, versionId: r.versionId } });
  // The recorded version may have been deleted: the changes are then unknown, the move is not.
  if (before.error) return { address: r.address, status: "moved", recorded, current };
  checkAnswer(before.data, VERSION, `reading ${r.address} version ${r.versionNumber}`);
  return {
    address: r.address,
    status: "moved",
    recorded,
    current,
    inputChanges: inputChanges(before.data.input_schema, now.input_schema),
    resultChanged: JSON.stringify(before.data.output_schema) !== JSON.stringify(now.output_schema),
  };
}

/** A --check line (and the changes under it) for people. */
function describe(r: CheckedScript): string {
  const was = `version ${r.recorded.versionNumber}`;
  if (r.status === "current") return `${r.address}: still at ${was}`;
  if (r.status === "missing") return `${r.address}: was at ${was}; no longer readable, or has no current version`;
  const lines = [`${r.address}: moved from ${was} (id ${r.recorded.versionId}) to version ${r.current!.versionNumber} (id ${r.current!.versionId})`];
  if (r.inputChanges === undefined) lines.push(`  inputs: unknown (version ${r.recorded.versionNumber} can no longer be read)`);
  else if (r.inputChanges.length === 0) lines.push("  inputs: unchanged");
  else lines.push(...r.inputChanges.map((c) => `  input ${c}`));
  if (r.resultChanged) lines.push("  result: its schema changed");
  return lines.join("\n");
}
