/**
 * The secrets an app knows of, so that `reduck flock secrets:set` can warn of a name it neither
 * uses nor declares (a typo sets a secret nothing reads): the folder's .api-keys.json and
 * manifest.json, else the release the app serves.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isImageSlug, isReleaseNumber, isScopeHandle } from "../../apps/app-ids.js";
import type { ReduckClient } from "../../core/client.js";
import { closestMatches } from "../../core/words/suggest.js";
import { getApp, getAppImageRelease } from "../../generated/operations.js";
import { SECRET_NAME } from "./secret-values.js";

/** The grant file whose `${NAME}` references the secrets fill. */
const GRANT_FILE = ".api-keys.json";

/**
 * A warning for each of `names` that the app neither uses nor declares: none when what the app
 * knows of cannot be read.
 *
 * @example
 * for (const warning of await unknownSecretWarnings(client, dir, app, ["NOTION_TOKN"])) process.stderr.write(`Warning: ${warning}\n`);
 */
export async function unknownSecretWarnings(client: ReduckClient, dir: string, app: { handle: string; id: string }, names: string[]): Promise<string[]> {
  return unknownWarnings(names, await knownSecrets(dir, () => servedSecrets(client, app)));
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
    Array.isArray(list) ? list.map((s) => (s as { name?: unknown } | null)?.name).filter((n): n is string => typeof n === "string" && SECRET_NAME.test(n)) : [];
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
