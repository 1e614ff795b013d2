/**
 * A script's contract for people: what it takes (arguments and file inputs), what it returns,
 * whether it needs a login and whether it changes anything. Shared by `scripts get` and
 * `scripts versions get`.
 */
import type { components } from "../../generated/schema.js";
import { renderFields, renderTable, stdoutLayout } from "../shell/output.js";
import { fileInputs } from "../../core/words/arguments.js";
import { isObject, jsonSchemaOf, type JsonSchema } from "../../core/json.js";
import { yesNo } from "../shell/list-flags.js";

type Script = components["schemas"]["ScriptWithVersion"];
type Version = components["schemas"]["ScriptVersion"];

/** The contract is a document, not a list: piped, its tables stay aligned rather than tab-separated. */
const contractLayout = () => stdoutLayout({ piped: "aligned" });

/** A keyword's list, or none when the schema holds something else there (a contract is anyone's JSON). */
const listOf = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);

/** A property's type in a few characters: `string`, `string | string[]`, `"a" | "b"`, `file`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!isObject(schema)) return "any";
  if (schema.format === "file") return "file";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const alternatives = [...listOf(schema.anyOf), ...listOf(schema.oneOf)];
  if (alternatives.length) return [...new Set(alternatives.map(typeLabel))].join(" | ");
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 0) return "any";
  return types
    .map((t) => {
      if (t === "array") return schema.items ? `${wrap(typeLabel(schema.items))}[]` : "array";
      if (t === "string" && schema.format) return `string (${schema.format})`;
      return t;
    })
    .join(" | ");
}

function wrap(label: string): string {
  return label.includes(" ") ? `(${label})` : label;
}

function section(title: string, body: string): string {
  return `\n${title}\n${body}`;
}

/** INPUTS, FILE INPUTS (with how to pass them) and OUTPUTS of a version. */
export function renderContract(version: Pick<Version, "input_schema" | "output_schema">, address: string): string {
  const input = jsonSchemaOf(version.input_schema) ?? {};
  const properties = isObject(input.properties) ? input.properties : {};
  const required = new Set(listOf(input.required));
  const files = new Set(fileInputs(input));
  const argNames = Object.keys(properties).filter((n) => !files.has(n));
  const out: string[] = [];

  out.push(section("INPUTS", argNames.length ? propertyTable(argNames, properties, "required", required) : "none"));

  if (files.size) {
    const names = [...files];
    const requiredArgs = argNames.filter((n) => required.has(n)).map((n) => `${n}=VALUE`);
    const example = [...requiredArgs, ...names.map((n) => `file:${n}=PATH`)].join(" ");
    out.push(
      section(
        "FILE INPUTS (give each as file:NAME=PATH; the CLI uploads the file's bytes)",
        `${renderTable(
          names,
          [
            { header: "name", get: (n) => n },
            { header: "required", get: (n) => yesNo(required.has(n)) },
            { header: "description", get: (n) => properties[n]?.description ?? "" },
          ],
          contractLayout(),
        )}\n\ne.g. reduck run --script ${address} ${example}`,
      ),
    );
  }

  const output = jsonSchemaOf(version.output_schema) ?? {};
  const outProps = isObject(output.properties) ? output.properties : {};
  const outNames = Object.keys(outProps);
  const outRequired = new Set(listOf(output.required));
  out.push(
    section(
      "OUTPUTS",
      outNames.length ? propertyTable(outNames, outProps, "always", outRequired) : `${typeLabel(output)}${output.description ? `: ${output.description}` : ""}`,
    ),
  );
  return out.join("\n");
}

/** A table of properties: name, type, whether each is required (under `requiredHeader`), description. */
function propertyTable(names: string[], properties: Record<string, JsonSchema>, requiredHeader: string, required: Set<string>): string {
  return renderTable(
    names,
    [
      { header: "name", get: (n) => n },
      { header: "type", get: (n) => typeLabel(properties[n]) },
      { header: requiredHeader, get: (n) => yesNo(required.has(n)) },
      { header: "description", get: (n) => properties[n]?.description ?? "" },
    ],
    contractLayout(),
  );
}

/** The code, or a clear statement that the service withheld it. */
export function renderCode(version: Pick<Version, "content" | "language">): string {
  if (version.content === undefined) {
    return section("CODE", "withheld by the service: the code of an official catalogue script is shown only to members of the project that owns it.");
  }
  return section(`CODE (${version.language})`, version.content.replace(/\n$/, ""));
}

/** `current` unknown (undefined): just "promoted". */
function versionLabel(version: Pick<Version, "version_number" | "id" | "draft">, current: boolean | undefined): string {
  const state = version.draft ? "draft" : current === undefined ? "promoted" : current ? "current" : "promoted, not current";
  return `${version.version_number} (${state}; id ${version.id})`;
}

/**
 * A script with its current version, as `scripts get` prints it.
 *
 * @example
 * this.log(renderScript(script, "reduck/mail.google.com/send_email", { code: false }));
 */
export function renderScript(script: Script, address: string, { code }: { code: boolean }): string {
  const version = script.current_version;
  const author = script.author;
  const fields: Array<[string, unknown]> = [
    ["Address", address],
    ["Name", script.name],
    ["Description", script.description],
    ["Owner", `${author.name} (${author.handle}, ${author.kind}${author.approval === "official" ? ", official" : ""})`],
    ["Visibility", script.visibility],
    ["Archived", script.archived_at ? `yes, since ${script.archived_at}` : "no"],
  ];
  if (version) {
    fields.push(
      ["Login needed", version.logged_in ? `yes: be signed in to ${script.host} in the browser that runs it` : "no"],
      ["Side effects", version.side_effects],
      ["Human required", yesNo(script.human_required)],
      ["Version", versionLabel(version, true)],
      ["Versions", script.version_count],
    );
  } else {
    fields.push([
      "Version",
      `none current (${script.version_count} draft${script.version_count === 1 ? "" : "s"}): promote one with \`reduck scripts versions promote\``,
    ]);
  }
  let text = renderFields(fields);
  if (version) {
    text += `\n${renderContract(version, address)}`;
    if (code) text += `\n${renderCode(version)}`;
  }
  return text;
}

/**
 * One version of a script, as `scripts versions get` and `scripts get --version` print it.
 *
 * @example
 * this.log(renderVersion(version, "example.com/get_title", { code: true }));
 */
export function renderVersion(version: Version, address: string, { code, currentVersionId }: { code: boolean; currentVersionId?: string | null }): string {
  const fields: Array<[string, unknown]> = [
    ["Address", address],
    ["Version", versionLabel(version, currentVersionId === undefined ? undefined : currentVersionId === version.id)],
    ["Note", version.note ?? "-"],
    ["Created", `${version.created_at}${version.created_by ? ` by ${version.created_by.handle}` : ""}`],
    ["Language", version.language],
    ["Login needed", yesNo(version.logged_in)],
    ["Side effects", version.side_effects],
  ];
  let text = `${renderFields(fields)}\n${renderContract(version, address)}`;
  if (code) text += `\n${renderCode(version)}`;
  return text;
}

/**
 * What a created or edited draft changes relative to its parent: contract fields, then the
 * changed lines of code.
 *
 * @example
 * this.log(renderDiff(draft.diff));
 */
export function renderDiff(diff: components["schemas"]["VersionDiff"] | undefined): string {
  if (!diff) return "";
  const fields = Object.entries(diff.fields ?? {});
  const changedLines = (diff.code ?? "").split("\n").filter((l) => l.startsWith("+") || l.startsWith("-"));
  if (fields.length === 0 && changedLines.length === 0) return section("CHANGES FROM THE PARENT VERSION", "none in code or contract");
  const lines = fields.map(([name, { from, to }]) => (name.endsWith("_schema") ? `${name}: changed` : `${name}: ${from || "(none)"} -> ${to}`));
  if (changedLines.length) {
    const added = changedLines.filter((l) => l.startsWith("+")).length;
    lines.push(`code: ${added} line${added === 1 ? "" : "s"} added, ${changedLines.length - added} removed`, ...changedLines.map((l) => `  ${l}`));
  }
  return section("CHANGES FROM THE PARENT VERSION", lines.join("\n"));
}
