/**
 * A script as the service holds it, as files, and the files as what the service takes: the
 * contract's name, description and visibility are the script's own fields; its schemas, side
 * effects and login are its version's, with the code.
 */
import type { components } from "../generated/schema.js";
import { addressText, contentHash, contractText, type ScriptContractFile, type ScriptFolderAddress, type ScriptLanguage } from "./layout.js";
import type { ScriptFolderFiles } from "./tree.js";

type Script = components["schemas"]["ScriptWithVersion"];
type Version = components["schemas"]["ScriptVersion"];

/** The fields of contract.json that belong to the script, not to a version. */
export const SCRIPT_FIELDS = ["name", "description", "visibility"] as const;

/**
 * The files of a script at one of its versions (the code absent when the service withheld it),
 * or a problem when the version's language is not one a code file can be named for.
 *
 * @example
 * const files = filesOf({ handle: "@demo", host: "example.com", slug: "get_title" }, script, script.current_version!);
 */
export function filesOf(
  address: ScriptFolderAddress,
  script: Pick<Script, "name" | "description" | "visibility">,
  version: Version,
): ScriptFolderFiles | { problem: string } {
  const language = version.language;
  if (version.content !== undefined && language !== "javascript" && language !== "typescript") {
    return { problem: `${addressText(address)}: its language ${JSON.stringify(language)} has no code file (script.js or script.ts)` };
  }
  const contract: ScriptContractFile = {
    ...(script.name !== undefined ? { name: script.name } : {}),
    description: script.description ?? "",
    input_schema: version.input_schema,
    output_schema: version.output_schema,
    ...(version.side_effects !== undefined ? { side_effects: version.side_effects } : {}),
    ...(version.logged_in !== undefined ? { logged_in: version.logged_in } : {}),
    ...(script.visibility !== undefined ? { visibility: script.visibility } : {}),
  };
  return {
    address,
    contract,
    ...(version.content !== undefined ? { code: { language: language as ScriptLanguage, text: version.content } } : {}),
  };
}

/** The hashes files would have once written (what a lock entry records). */
export function hashesOf(files: ScriptFolderFiles): { codeHash: string | null; contractHash: string } {
  return { codeHash: files.code ? contentHash(files.code.text) : null, contractHash: contentHash(contractText(files.contract)) };
}

/**
 * A version's fields for `createDraftScriptVersion` from a script's files: the code, its
 * language, the schemas, and the login and side effects when the contract gives them in a form
 * the service takes (`undetermined` is the service's word for none declared, never sent back; any other word
 * is sent as written, for the service to accept or refuse).
 */
export function versionBody(files: ScriptFolderFiles & { code: NonNullable<ScriptFolderFiles["code"]> }) {
  const { contract } = files;
  // Sent as written (the service's type says none or write): the service accepts or refuses it.
  const sideEffects = contract.side_effects !== "undetermined" ? (contract.side_effects as "none" | "write" | undefined) : undefined;
  return {
    content: files.code.text,
    language: files.code.language,
    input_schema: contract.input_schema,
    output_schema: contract.output_schema,
    ...(contract.logged_in !== undefined ? { logged_in: contract.logged_in } : {}),
    ...(sideEffects ? { side_effects: sideEffects } : {}),
  };
}
