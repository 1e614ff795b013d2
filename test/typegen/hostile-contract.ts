/**
 * A contract written to attack whoever generates types from it: every slot of the module
 * (names, descriptions, `$ref`, `type`, enum and const values, `$defs` keys, property names, the
 * header's address and version id) holds line ends of every kind, `*\/`, control and bidi
 * characters, and code that leaves a trace in a file when it runs.
 */
import type { ScriptContract } from "../../src/typegen/module.js";

/** Code that leaves a trace when it runs, whatever the slot that let it out. */
const payload = (mark: string, slot: string) =>
  `globalThis.process.getBuiltinModule("node:fs").appendFileSync(${JSON.stringify(mark)}, ${JSON.stringify(`${slot}\n`)});`;

/** What ends a `//` comment (every line end TypeScript knows), a block comment, a string or a type. */
const BREAKS = ["\n", "\r", "\r\n", "\u2028", "\u2029"];
const CONTROLS = "\u0000\u0007\u001b[2J\u001b]0;title\u0007\u007f\u0085\u009b\u202e\u2066";

/** A text for `slot` that tries every way out of a comment, a string literal and an interface. */
function hostile(mark: string, slot: string): string {
  const escapes = BREAKS.map((b) => `x${b}${payload(mark, slot)}//`).join("");
  return `${escapes} */ ${payload(mark, slot)} /* "}; ${payload(mark, slot)} \\" ${CONTROLS} \`\${${payload(mark, slot)}}\``;
}

function hostileSchema(h: (slot: string) => string, part: string): Record<string, unknown> {
  const slot = (name: string) => h(`${part} ${name}`);
  return {
    type: "object",
    description: slot("description"),
    properties: {
      [slot("property name")]: { type: "string", description: slot("property description") },
      ref: { $ref: slot("$ref") },
      wrongType: { type: slot("type") },
      typeList: { type: ["string", slot("type in a list")] },
      choice: { enum: [slot("enum value"), 1, null] },
      fixed: { const: slot("const value") },
      list: { type: "array", items: { type: slot("items type") }, description: slot("array description") },
      union: { anyOf: [{ type: "string" }, { $ref: slot("$ref in anyOf") }] },
      nested: { type: "object", properties: { [slot("nested property")]: { const: slot("nested const") } }, required: [slot("nested property")] },
      entry: { $ref: `#/$defs/${slot("$defs key")}` },
      map: { type: "object", additionalProperties: { type: slot("additionalProperties type") } },
      doc: { type: "string", format: "file", description: slot("file description") },
      [slot("file name")]: { type: "string", format: "file" },
    },
    required: [slot("property name"), slot("file name")],
    additionalProperties: false,
    $defs: {
      [slot("$defs key")]: { type: "object", description: slot("$defs description"), properties: { inner: { $ref: slot("$ref in $defs") } } },
      plain: { type: slot("type in $defs") },
      other: { $ref: slot("$ref alone in $defs") },
    },
  };
}

/**
 * Three contracts that attack every slot (one whole output schema is a bare hostile `type`, one a
 * bare hostile `$ref`), and the command line the header records. Run, the payload appends to `mark`.
 */
export function hostileContracts(mark: string): { contracts: ScriptContract[]; command: string } {
  const h = (slot: string) => hostile(mark, slot);
  const contract: ScriptContract = {
    handle: h("handle"),
    host: h("host"),
    slug: h("slug"),
    name: h("name"),
    description: h("script description"),
    versionId: h("version id"),
    versionNumber: h("version number") as unknown as number,
    inputSchema: hostileSchema(h, "input"),
    outputSchema: hostileSchema(h, "output"),
  };
  /** A whole output schema that is one hostile `type`, and one that is one hostile `$ref`. */
  const bareOutputs: ScriptContract[] = [
    { ...contract, slug: "bare_type", outputSchema: { type: h("output type") } },
    { ...contract, slug: "bare_ref", outputSchema: { $ref: h("output $ref") }, inputSchema: { type: h("input type") } },
  ];
  return { contracts: [contract, ...bareOutputs], command: `reduck scripts types ${h("command")}` };
}
