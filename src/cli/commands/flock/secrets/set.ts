import { readFile } from "node:fs/promises";
import path from "node:path";
import { Args, Flags } from "@oclif/core";
import { closestMatches } from "../../../../core/suggest.js";
import { isImageSlug, isReleaseNumber, isScopeHandle } from "../../../../apps/app-ids.js";
import type { ReduckClient } from "../../../../client.js";
import { getApp, getAppImageRelease, updateAppSecrets } from "../../../../generated/operations.js";
import type { components } from "../../../../generated/schema.js";
import { BaseCommand } from "../../../shell/base.js";
import { usageError } from "../../../shell/errors.js";
import { askHidden, readAll, TooMuchInput } from "../../../shell/hidden-input.js";
import { expandHome } from "../../../../system/paths.js";
import { appOf, dirFlag, folderAppCallError, folderOf } from "../../../flock/flock.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const NAME_RULE = "a letter or '_' first, then letters, digits and '_', 64 at most";
/** The largest value read from stdin or a file: far beyond any token, short of a mistake. */
const VALUE_LIMIT = 64 * 1024;
/** The grant file whose `${NAME}` references the secrets fill. */
const GRANT_FILE = ".api-keys.json";

/** Where one secret's value comes from. */
type Source = { kind: "argument"; value: string } | { kind: "stdin" } | { kind: "file"; file: string };

export default class FlockSecretsSet extends BaseCommand<typeof FlockSecretsSet> {
  static override hidden = true;
  static override strict = false;
  static override summary = "Set secrets of the app flock.json names: the values behind ${NAME} in .api-keys.json (early access)";
  static override description =
    `Each NAME=value (split on the first "=") sets one secret of the installed app that flock.json in --dir (default: the current folder) names; several go in one call, all or none. Values are sealed by the service and never readable again; this command never prints them, nor any argument it cannot read (it names the argument by its position). A new secret is closed to the app's page: only its server-side tasks may spend it.

A value on the command line shows in \`ps\` and your shell's history. Instead, NAME=- reads the value from standard input (a hidden prompt on a terminal), and --from-file NAME=PATH from a file; either way without its final line end, as "$(cat PATH)" would give it.

A NAME that neither .api-keys.json uses (as \${NAME}) nor manifest.json declares (those of --dir, else those of the release the app serves) is set all the same, with a warning that names the app's secrets and the one most likely meant.`;

  static override examples = [
    {
      description: "One secret, typed at a hidden prompt (or piped in)",
      command:
        "<%= config.bin %> flock secrets:set NOTION_TOKEN=-  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
    {
      description: "From a file",
      command:
        "<%= config.bin %> flock secrets:set --from-file NOTION_TOKEN=./notion-token.txt  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one",
    },
    {
      description: "Several at once (all land, or none)",
      command:
        '<%= config.bin %> flock secrets:set A_KEY="$A_KEY" B_KEY="$B_KEY"  # not run by the tests: needs the flock.json a deploy or install writes; docs/flock.md runs it after one',
    },
  ];

  static override args = {
    secret: Args.string({ description: "NAME=value, or NAME=- to read the value from standard input; repeat for several." }),
  };

  static override flags = {
    ...dirFlag,
    "from-file": Flags.string({
      description: "NAME=PATH: the value is the file's contents, without its final line end. Repeat for several.",
      helpValue: "NAME=PATH",
      multiple: true,
    }),
  };

  public async run(): Promise<components["schemas"]["AppSecrets"]> {
    // Every NAME=value, without the flags and their values (strict: false keeps them all in argv).
    const { argv } = await this.parse(FlockSecretsSet);
    const sources = parseSources(argv as string[], this.flags["from-file"] ?? []);
    const dir = folderOf(this.flags.dir);
    const app = await appOf(dir);
    const client = await this.client();
    const names = [...sources.keys()];
    const known = await knownSecrets(dir, () => servedSecrets(client, app));
    for (const warning of unknownWarnings(names, known)) process.stderr.write(`Warning: ${warning}\n`);
    const secrets: Record<string, string> = {};
    for (const [name, source] of sources) secrets[name] = await readValue(name, source);
    const doing = `setting ${names.join(", ")} on app ${app.id}`;
    const set = await updateAppSecrets({ client, path: { handle: app.handle, appId: app.id }, body: { secrets } });
    if (set.error) throw await folderAppCallError(client, dir, set.error, doing);
    this.log(`Set ${names.join(", ")} on app ${app.id} (values are never shown).`);
    return set.data;
  }
}

/**
 * Where each secret's value comes from, in the order given. A malformed argument is named by its
 * position, never shown: it may be a value.
 */
function parseSources(tokens: string[], files: string[]): Map<string, Source> {
  const sources = new Map<string, Source>();
  const add = (name: string, source: Source, where: string) => {
    if (sources.has(name)) throw usageError(`${where} sets ${name} a second time: give each secret once`);
    sources.set(name, source);
  };
  tokens.forEach((token, i) => {
    const where = `argument ${i + 1}`;
    const eq = token.indexOf("=");
    const shown = "(it is not shown: it may hold a secret)";
    if (eq <= 0) throw usageError(`${where} is not NAME=value ${shown}: write NAME=value, NAME=- to read the value from stdin, or --from-file NAME=PATH`);
    const name = token.slice(0, eq);
    if (!NAME.test(name)) throw usageError(`${where} does not start with a secret name (${NAME_RULE}) ${shown}`);
    const value = token.slice(eq + 1);
    add(name, value === "-" ? { kind: "stdin" } : { kind: "argument", value }, where);
  });
  files.forEach((given, i) => {
    const where = `--from-file number ${i + 1}`;
    const eq = given.indexOf("=");
    const name = eq > 0 ? given.slice(0, eq) : "";
    if (!NAME.test(name) || eq === given.length - 1) throw usageError(`${where} is not NAME=PATH: a secret name (${NAME_RULE}), "=", then the file`);
    add(name, { kind: "file", file: given.slice(eq + 1) }, where);
  });
  if (!sources.size) throw usageError("give at least one NAME=value (or NAME=-, or --from-file NAME=PATH)");
  if ([...sources.values()].filter((s) => s.kind === "stdin").length > 1) {
    throw usageError("only one secret can be read from stdin (NAME=-): give the others with --from-file NAME=PATH");
  }
  return sources;
}

/** A value from stdin or a file: without its final line ends (as "$(cat file)" gives it), never empty. */
async function readValue(name: string, source: Source): Promise<string> {
  if (source.kind === "argument") return source.value;
  let text: string;
  if (source.kind === "stdin") {
    try {
      text = process.stdin.isTTY ? await askHidden(`Value of ${name} (not shown as you type): `) : await readAll(process.stdin, VALUE_LIMIT);
    } catch (err) {
      if (err instanceof TooMuchInput) throw usageError(`the value of ${name} on stdin is over ${VALUE_LIMIT / 1024} KiB: is it the right input?`);
      throw err;
    }
  } else {
    const file = expandHome(source.file);
    text = await readFile(file).then(
      (bytes) => {
        if (bytes.length > VALUE_LIMIT)
          throw usageError(`--from-file ${name}=${source.file}: the file is over ${VALUE_LIMIT / 1024} KiB: is it the right file?`);
        return bytes.toString("utf8");
      },
      (err: NodeJS.ErrnoException) => {
        throw usageError(`--from-file ${name}=${source.file}: cannot read it (${err.code ?? err.message})`);
      },
    );
  }
  const value = text.replace(/(\r?\n)+$/, "");
  if (!value) throw usageError(`the value of ${name} ${source.kind === "stdin" ? "on stdin" : `in ${source.file}`} is empty`);
  return value;
}

/** The secrets an app knows of, and where that was read. */
interface KnownSecrets {
  names: Set<string>;
  /** Where a name was looked for, as a warning says it. */
  where: string;
}

/**
 * The secrets the app uses or asks for: the `${NAME}`s of the folder's .api-keys.json and the
 * secrets its manifest.json declares, when the folder has either; else those of the release the
 * app serves and the app's own (`served`). Undefined when neither can be read.
 */
async function knownSecrets(dir: string, served: () => Promise<{ grant: unknown; secrets: string[] } | undefined>): Promise<KnownSecrets | undefined> {
  const local = async (name: string) =>
    readFile(path.join(dir, name), "utf8").then(
      (text) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return undefined;
        }
      },
      () => undefined,
    );
  const grant = await local(GRANT_FILE);
  const manifest = await local("manifest.json");
  if (grant !== undefined || manifest !== undefined) {
    const declared = (manifest as { secrets?: unknown } | undefined)?.secrets;
    const names = new Set([...referencesIn(grant), ...(declared && typeof declared === "object" ? Object.keys(declared) : [])]);
    return { names, where: `${path.join(dir, GRANT_FILE)} nor its manifest.json` };
  }
  const app = await served();
  if (!app) return undefined;
  return { names: new Set([...referencesIn(app.grant), ...app.secrets]), where: "the .api-keys.json nor the manifest of the release the app serves" };
}

/**
 * What the release the app serves uses and declares: its grant and its manifest's secrets (read
 * from the release, falling back to the app's own grant and secrets); undefined when the app
 * cannot be read.
 */
async function servedSecrets(client: ReduckClient, app: { handle: string; id: string }): Promise<{ grant: unknown; secrets: string[] } | undefined> {
  const read = await getApp({ client, path: { handle: app.handle, appId: app.id } });
  if (read.error) return undefined;
  const names = (list: unknown) =>
    Array.isArray(list) ? list.map((s) => (s as { name?: unknown } | null)?.name).filter((n): n is string => typeof n === "string" && NAME.test(n)) : [];
  const { image, current_release: number } = read.data;
  if (image && isScopeHandle(image.handle) && isImageSlug(image.slug) && isReleaseNumber(number)) {
    const release = await getAppImageRelease({ client, path: { handle: image.handle, slug: image.slug, releaseNumber: number } });
    if (!release.error) return { grant: release.data.api_grant, secrets: [...names(release.data.manifest?.secrets), ...names(read.data.secrets)] };
  }
  return { grant: read.data.api_grant, secrets: names(read.data.secrets) };
}

/** The `${NAME}` references in a grant, wherever they are in it. */
function referencesIn(grant: unknown): string[] {
  const names: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string") for (const m of value.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) names.push(m[1]!);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(grant);
  return names;
}

/** A warning for each name the app neither uses nor asks for, with the one most likely meant. */
function unknownWarnings(names: string[], known: KnownSecrets | undefined): string[] {
  if (!known) return [];
  return names
    .filter((name) => !known.names.has(name))
    .map((name) => {
      const meant = closestMatches(name, known.names, 1)[0];
      const secrets = known.names.size ? [...known.names].sort().join(", ") : "none";
      return `neither ${known.where} uses or declares ${name} (the app's secrets: ${secrets})${meant ? `: did you mean ${meant}?` : "."} It is set all the same.`;
    });
}
