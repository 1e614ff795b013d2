/**
 * The files an agent names for a run (`files: { input: { relativePath } }`), checked against the
 * reduck folder before any request and bound the way the chosen browser reads them.
 */
import type { FileHandle } from "node:fs/promises";
import type { FileSource } from "../../run/files.js";
import type { ScriptToRun } from "../../run/run.js";
import type { ToolContext } from "./answers.js";
import { checkNamedFile } from "./folder.js";
import { nameProblem, notAVersionId, scriptName } from "./naming.js";
import type { ScriptRefInput } from "./tool-schemas.js";

/** Turns the agent's named files into what the run sends, refusing unsafe names before any request. */
export async function bindFiles(
  ctx: ToolContext,
  script: ScriptRefInput,
  onOwnBrowser: boolean,
  opened: FileHandle[],
): Promise<{ ok: true; script: ScriptToRun } | { ok: false; message: string }> {
  const name = scriptName(script);
  if ("problem" in name) return { ok: false, message: await nameProblem(ctx, script, name.problem) };
  // The version's id goes in the run's body, not a URL: checked here by the same rule, before anything is sent.
  const badVersion = script.version_id !== undefined ? notAVersionId(script.version_id, "list_script_versions lists a script's versions") : undefined;
  if (badVersion) return { ok: false, message: badVersion };
  const files: Record<string, FileSource> = {};
  for (const [input, binding] of Object.entries(script.files ?? {})) {
    const check = await checkNamedFile(ctx.folder, binding.relativePath);
    if (!check.ok) return { ok: false, message: `file input ${input}: ${check.message}` };
    if (onOwnBrowser) {
      if (!check.file) return { ok: false, message: missingOnOwnBrowser(ctx, input, binding.relativePath) };
      // The caller's browser reads it from the folder and it keeps its own name.
      await check.file.handle.close();
      files[input] = { relativePath: binding.relativePath };
    } else {
      // A managed browser can't read this machine: send the bytes instead, read from the
      // handle that was checked (opening the path again could be raced to a file outside).
      if (!check.file) return { ok: false, message: `bound 0 bytes — could not read ${binding.relativePath} in ${ctx.folder}` };
      opened.push(check.file.handle);
      files[input] = { handle: check.file.handle, name: binding.relativePath };
    }
  }
  const { files: _named, address: _address, host: _host, slug: _slug, handle: _handle, ...rest } = script;
  return { ok: true, script: { ...name, ...rest, ...(Object.keys(files).length ? { files } : {}) } };
}

/**
 * Checked here, before a run is spent: the paired browser reads the same folder, because it
 * normally runs on this machine. (A browser paired on another machine would see its own
 * desktop; the message says what was looked at.)
 */
function missingOnOwnBrowser(ctx: ToolContext, input: string, relativePath: string): string {
  // The documented text begins "bound 0 bytes — the browser could not read"; ours says why after it.
  return (
    `bound 0 bytes — the browser could not read ${JSON.stringify(relativePath)} for file input ${input}: there is no such file in ${ctx.folder}, so nothing was run. ` +
    "Your own browser reads named files from the reduck folder on its machine's desktop, normally this machine, where this server looked: " +
    "put the file there or correct the name."
  );
}
