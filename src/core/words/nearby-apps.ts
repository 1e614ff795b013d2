/**
 * "Did you mean ...?" for hosted apps: the scope or the app image a mistyped address most likely
 * meant, looked up at the service. Apps are never public, so a scope is only worth suggesting
 * when the caller is in it; images are suggested from those the caller can install (theirs, their
 * projects' and the public catalogue).
 */
import type { ReduckClient } from "../client.js";
import { listAllAppImages } from "../../generated/operations.js";
import { callerHandles, either, otherSpelling } from "./nearby-handles.js";
import { closestMatches } from "./suggest.js";

/** How many images one search reads. */
const SEARCH_PAGE = 100;

/** At most this many names in a list a hint gives. */
const SHOWN = 5;

const listed = (names: string[]) => `${names.slice(0, SHOWN).join(", ")}${names.length > SHOWN ? ", ..." : ""}`;

/**
 * The sentence to add to "no such scope" for a handle the caller is not in (the service answers
 * an unknown handle and another's scope alike). Tried in order: the same name the other way
 * round (`@demo` for `demo`), a scope of the caller's a typo away, and last the caller's scopes.
 *
 * @example
 * await unknownScopeHint(client, "acmee"); // "Did you mean acme?"
 */
export async function unknownScopeHint(client: ReduckClient, handle: string): Promise<string> {
  const scopes = await callerHandles(client);
  const other = otherSpelling(handle);
  if (scopes.includes(other.handle)) return `Did you mean ${other.handle}? ${other.why}`;
  const close = closestMatches(handle, scopes);
  if (close.length) return `Did you mean ${either(close)}?`;
  return scopes.length
    ? `Apps are never public: your scopes are ${scopes.join(", ")}.`
    : "Apps are never public: only a scope you are in has apps you can reach.";
}

/**
 * The sentence to add to "no such app image", or undefined when nothing looks close. Tried in
 * order: a close slug of the same owner, the same slug under a close handle (`@acme/notes` for
 * `acme/notes`), the images that owner has, and last the images the caller can install. A lookup
 * that fails gives no hint: a hint is a courtesy, never a second error.
 *
 * @example
 * await unknownImageHint(client, { handle: "reduck", slug: "guestbok" }); // "Did you mean reduck/guestbook?"
 */
export async function unknownImageHint(client: ReduckClient, image: { handle: string; slug: string }): Promise<string | undefined> {
  const seen = await listAllAppImages({ client, query: { pageSize: SEARCH_PAGE } });
  if (seen.error) return undefined;
  const images = seen.data.map((i) => ({ handle: i.owner.handle, slug: i.slug }));
  const address = (i: { handle: string; slug: string }) => `${i.handle}/${i.slug}`;
  const ownerSlugs = images.filter((i) => i.handle === image.handle).map((i) => i.slug);
  const slug = closestMatches(image.slug, ownerSlugs);
  if (slug.length) return `Did you mean ${either(slug.map((s) => address({ handle: image.handle, slug: s })))}?`;
  const flipped = otherSpelling(image.handle).handle;
  const handles = images.filter((i) => i.slug === image.slug).map((i) => i.handle);
  const handle = handles.includes(flipped) ? [flipped] : closestMatches(image.handle, handles);
  if (handle.length) return `Did you mean ${either(handle.map((h) => address({ handle: h, slug: image.slug })))}?`;
  if (ownerSlugs.length) return `${image.handle} has: ${listed(ownerSlugs)}.`;
  return images.length ? `Images you can install: ${listed(images.map(address))}.` : undefined;
}
