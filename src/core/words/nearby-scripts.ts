/**
 * "Did you mean ...?" for script addresses: the scripts a mistyped or unknown address most
 * likely meant, looked up at the service. Shared by the CLI and the agent tool, so both suggest
 * the same scripts in the same words.
 */
import type { ReduckClient } from "../client.js";
import { getScript, listAllScripts, listScripts } from "../../generated/operations.js";
import type { components } from "../../generated/schema.js";
import { isIdOf } from "../id-shapes.js";
import { isObject } from "../json.js";
import { callerHandles, either, otherSpelling } from "./nearby-handles.js";
import { closestMatches, editDistance } from "./suggest.js";

type ScriptSummary = components["schemas"]["ScriptSummary"];

/** The handle of the official catalogue. */
export const OFFICIAL_HANDLE = "reduck";

/** How many scripts one search reads. */
const SEARCH_PAGE = 100;

interface Wanted {
  /** The handle the address resolved to (the caller's own when the address named none). */
  handle: string;
  host: string;
  slug: string;
  /** The address named no handle: one of the caller's own scripts was meant. */
  ownImplied?: boolean;
}

const addressOf = (s: { handle: string; host: string; slug: string }) => `${s.handle}/${s.host}/${s.slug}`;

/**
 * The listed scripts a hint may name: host, slug and owner's handle present and of their
 * documented shapes. Any other is left out, not an error: a hint is a courtesy.
 */
const nameable = (listed: ScriptSummary[]): ScriptSummary[] =>
  (listed as unknown[]).filter(
    (s): s is ScriptSummary =>
      isObject(s) && typeof s.host === "string" && typeof s.slug === "string" && isObject(s.author) && isIdOf("handle", s.author.handle),
  );

/**
 * The sentence to add to "no such script" for an address the service does not know, or
 * undefined when nothing looks close. Tried in order: the official script of that host and slug
 * (for an address without `reduck/`), a close slug on the same host and owner, a close host with
 * the same slug anywhere the caller can see (`mail.gogle.com` for `mail.google.com`), the
 * scripts that owner has on that host, and last, for an address without a handle, the scripts of
 * that slug anywhere (`reduck/send_email`, an owner where the host belongs). Every lookup that fails is skipped: a hint is a
 * courtesy, never a second error.
 *
 * @example
 * await unknownScriptHint(client, { handle: "@demo", host: "mail.gogle.com", slug: "send_email", ownImplied: true });
 * // "Did you mean reduck/mail.google.com/send_email?"
 */
export async function unknownScriptHint(client: ReduckClient, wanted: Wanted): Promise<string | undefined> {
  if (wanted.handle !== OFFICIAL_HANDLE) {
    const twin = { handle: OFFICIAL_HANDLE, host: wanted.host, slug: wanted.slug };
    const read = await getScript({ client, path: twin });
    if (!read.error) {
      return `Did you mean ${addressOf(twin)}, the official script? ${
        wanted.ownImplied ? "An address without a handle names one of your own scripts; official ones start with reduck/." : ""
      }`.trim();
    }
  }
  const sameHost = await listScripts({ client, path: { handle: wanted.handle }, query: { host: wanted.host, pageSize: SEARCH_PAGE } });
  const slugs = sameHost.error
    ? []
    : nameable(sameHost.data)
        .filter((s) => s.host === wanted.host)
        .map((s) => s.slug);
  const close = closestMatches(wanted.slug, slugs);
  if (close.length) return `Did you mean ${either(close.map((slug) => addressOf({ ...wanted, slug })))}?`;
  if (!slugs.length) {
    const hosts = await closeHosts(client, wanted);
    if (hosts.length) return `Did you mean ${either(hosts)}?`;
  }
  if (slugs.length) return `${wanted.handle} has on ${wanted.host}: ${slugs.slice(0, 5).join(", ")}${slugs.length > 5 ? ", ..." : ""}.`;
  // `reduck/send_email`: an owner written where the host belongs reads as host/slug of one's own
  // scripts (a host needs no dot), so the scripts of that slug are what was meant.
  if (wanted.ownImplied) {
    const elsewhere = await bareSlugHint(client, wanted.slug);
    if (elsewhere && !wanted.host.includes("."))
      return `${elsewhere} (${wanted.host}/${wanted.slug} names a script of your own on a host called ${wanted.host})`;
    return elsewhere;
  }
  return undefined;
}

/** Scripts with the wanted slug (or one a typo away) on a host a typo away, best first. */
async function closeHosts(client: ReduckClient, wanted: Wanted): Promise<string[]> {
  const found = await listAllScripts({ client, query: { q: wanted.slug, pageSize: SEARCH_PAGE } });
  if (found.error) return [];
  const listed = nameable(found.data);
  const hosts = closestMatches(
    wanted.host,
    listed.map((s) => s.host),
    Infinity,
  );
  const slugLimit = Math.max(1, Math.floor(wanted.slug.length / 4));
  return listed
    .filter((s) => hosts.includes(s.host) && editDistance(s.slug, wanted.slug) <= slugLimit)
    .map((s) => ({
      address: addressOf({ handle: s.author.handle, host: s.host, slug: s.slug }),
      // Closest host first; among equals, the owner the address named, then the official catalogue.
      rank:
        hosts.indexOf(s.host) * 4 + editDistance(s.slug, wanted.slug) * 2 + (s.author.handle === wanted.handle || s.author.handle === OFFICIAL_HANDLE ? 0 : 1),
    }))
    .sort((a, b) => a.rank - b.rank)
    .map((s) => s.address)
    .filter((a, i, all) => all.indexOf(a) === i)
    .slice(0, 3);
}

/**
 * For a bare slug given where an address belongs (`send_email`): the addresses of the scripts
 * with that slug the caller can see, the official catalogue's first, as a sentence; undefined
 * when there are none or the search fails.
 *
 * @example
 * await bareSlugHint(client, "send_email"); // "Did you mean reduck/mail.google.com/send_email?"
 */
export async function bareSlugHint(client: ReduckClient, slug: string): Promise<string | undefined> {
  const found = await listAllScripts({ client, query: { q: slug, pageSize: SEARCH_PAGE } });
  if (found.error) return undefined;
  const listed = nameable(found.data);
  const exact = listed.filter((s) => s.slug === slug);
  const pool = exact.length ? exact : listed.filter((s) => closestMatches(slug, [s.slug]).length);
  const addresses = pool
    .map((s) => ({ address: addressOf({ handle: s.author.handle, host: s.host, slug: s.slug }), official: s.author.handle === OFFICIAL_HANDLE }))
    .sort((a, b) => Number(b.official) - Number(a.official))
    .map((s) => s.address)
    .filter((a, i, all) => all.indexOf(a) === i)
    .slice(0, 3);
  return addresses.length ? `Did you mean ${either(addresses)}?` : undefined;
}

/**
 * The sentence to add to "no such handle" for an owner the service does not know. Tried in order: the same name the other way round (`@acme` for
 * `acme`: a person's handle starts with `@`, a project's does not), then the handles the caller
 * knows (the official catalogue's, their own, their projects') a typo away, and last those
 * handles themselves, as a list. Lookups that fail are skipped, as in unknownScriptHint.
 *
 * @example
 * await unknownHandleHint(client, "demo"); // "Did you mean @demo? A person's handle starts with @."
 * await unknownHandleHint(client, "redcuk"); // "Did you mean reduck?"
 */
export async function unknownHandleHint(client: ReduckClient, handle: string): Promise<string> {
  const other = otherSpelling(handle);
  if (other.handle && other.handle !== "@") {
    const listed = await listScripts({ client, path: { handle: other.handle }, query: { pageSize: 1 } });
    if (!listed.error) return `Did you mean ${other.handle}? ${other.why}`;
  }
  const yours = (await callerHandles(client)).filter((h) => h !== OFFICIAL_HANDLE);
  const close = closestMatches(handle, [OFFICIAL_HANDLE, ...yours]);
  if (close.length) return `Did you mean ${either(close)}?`;
  return `${yours.length ? `Your handles: ${yours.join(", ")}; the official catalogue: ` : "The official catalogue: "}${OFFICIAL_HANDLE}.`;
}
