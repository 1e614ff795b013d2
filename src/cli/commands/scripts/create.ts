import { Flags } from "@oclif/core";
import { createScript } from "../../../generated/operations.js";
import { CREATED_SCRIPT } from "../../shell/answer-shapes.js";
import { formatAddress, parseAddress } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import { renderFields } from "../../shell/output.js";
import { ownHandle } from "../../scripts/own-handle.js";
import { readJsonObject, readSource } from "../../scripts/script-files.js";

/** What a script without --input-schema or --output-schema declares: no inputs, any object out. */
const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} };

export default class ScriptsCreate extends BaseCommand<typeof ScriptsCreate> {
  static override summary = "Create a script and its first version";
  static override description =
    `The code comes from --source (a .ts or .js file); the contract from --input-schema and --output-schema (JSON files holding JSON Schema objects; a file input is a string property with "format": "file"). Without them the script takes no inputs and returns an object.

The script is created under your own handle unless --handle names a project you may create scripts in. Its first version is promoted (current) unless --draft.`;

  static override examples = [
    {
      description: "Create a private script from local files",
      command:
        '<%= config.bin %> scripts create --host example.com --slug get_links --description "Lists the links of a page" --source ./get_links.ts --input-schema ./input.json --output-schema ./output.json --side-effects none',
    },
    {
      description: "Create it in a project, as an unpromoted draft",
      command:
        '<%= config.bin %> scripts create --handle acme --host crm.acme.test --slug add_contact --description "Adds a contact" --source ./add_contact.js --side-effects write --logged-in --draft',
    },
  ];

  static override flags = {
    host: Flags.string({ description: "Site the script targets, e.g. mail.google.com.", required: true }),
    slug: Flags.string({ description: "Script name within the owner and host: lowercase letters, digits, _ and -.", required: true }),
    description: Flags.string({ description: "What the script does (shown in listings and to agents).", required: true }),
    source: Flags.string({ description: "File with the script's code (.ts or .js).", required: true, helpValue: "FILE" }),
    language: Flags.string({ description: "Language of --source, when its extension does not say.", options: ["typescript", "javascript"] }),
    "input-schema": Flags.string({ description: "JSON file with the input schema (default: no inputs).", helpValue: "FILE" }),
    "output-schema": Flags.string({ description: "JSON file with the output schema (default: an object).", helpValue: "FILE" }),
    "side-effects": Flags.string({ description: "none: it only reads; write: it acts on the site.", options: ["none", "write"], required: true }),
    visibility: Flags.string({ description: "Who can read and run it (default private).", options: ["private", "public"] }),
    name: Flags.string({ description: "Display name (default: the slug)." }),
    draft: Flags.boolean({ description: "Leave the first version a draft: the script has no current version until one is promoted." }),
    "logged-in": Flags.boolean({ description: "The script needs the user signed in to the site." }),
    "human-required": Flags.boolean({ description: "The script needs a person at the browser (a captcha, a confirmation)." }),
    handle: Flags.string({ description: "Owner: a project handle, or your own @username (the default)." }),
  };

  public async run(): Promise<unknown> {
    const flags = this.flags;
    // The same rules as any address, checked before anything is read or sent.
    parseAddress(`${flags.host}/${flags.slug}`);
    if (flags.draft && flags.visibility === "public") {
      throw usageError(
        "--draft leaves the script with no promoted version, and a public script needs one: create it private (the default), promote a version, then `reduck scripts publish ADDRESS`",
      );
    }
    const [source, inputSchema, outputSchema] = await Promise.all([
      readSource(flags.source, flags.language),
      flags["input-schema"] ? readJsonObject(flags["input-schema"], "--input-schema") : EMPTY_OBJECT_SCHEMA,
      flags["output-schema"] ? readJsonObject(flags["output-schema"], "--output-schema") : { type: "object" },
    ]);
    const client = await this.client();
    const handle = flags.handle ?? (await ownHandle(client));
    const created = this.unwrap(
      await createScript({
        client,
        path: { handle },
        body: {
          host: flags.host,
          slug: flags.slug,
          description: flags.description,
          content: source.content,
          language: source.language,
          input_schema: inputSchema,
          output_schema: outputSchema,
          side_effects: flags["side-effects"] as "none" | "write",
          ...(flags.name ? { name: flags.name } : {}),
          ...(flags.visibility ? { visibility: flags.visibility as "private" | "public" } : {}),
          ...(flags.draft ? { draft: true } : {}),
          ...(flags["logged-in"] ? { logged_in: true } : {}),
          ...(flags["human-required"] ? { human_required: true } : {}),
        },
      }),
      `creating ${formatAddress({ handle, host: flags.host, slug: flags.slug })}`,
      CREATED_SCRIPT,
    );
    const address = formatAddress({ handle, host: created.host, slug: created.slug });
    const result = { ...created, handle, address };
    if (this.jsonEnabled()) return result;
    this.log(
      renderFields([
        ["Created", address],
        ["Script id", created.id],
        ["Version id", created.created_version_id],
        ["Current", created.current_version_id ? "this version" : "none yet (the version is a draft)"],
      ]),
    );
    if (!created.current_version_id) {
      this.note(`Try the draft with \`reduck run --version 1 --script ${address}\`; make it current with \`reduck scripts versions promote ${address} 1\`.`);
    }
    return result;
  }
}
