// Host rules shared by scripts and connectors. The real service uses the public-suffix list; a short
// list of two-label suffixes is enough for a test server and keeps "google.com" from counting as a
// parent of "mail.google.com"'s sibling sites on another registrable domain.

const TWO_LABEL_SUFFIXES = new Set([
  "co.uk",
  "org.uk",
  "ac.uk",
  "gov.uk",
  "com.au",
  "net.au",
  "org.au",
  "co.nz",
  "co.jp",
  "ne.jp",
  "com.br",
  "com.mx",
  "com.ar",
  "co.in",
  "co.za",
  "com.cn",
  "com.tr",
  "co.kr",
  "com.sg",
  "com.hk",
]);

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;

/** Lower case, no scheme, no path, no leading `www.`: the bare form connectors are stored under. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^www\./, "");
}

/** A DNS name (optionally with a port, for local development sites). */
export function isHostname(host: string): boolean {
  return HOSTNAME.test(host);
}

/** `mail.google.com` -> `google.com`; `shop.example.co.uk` -> `example.co.uk`. */
export function registrableDomain(host: string): string {
  const labels = host.split(".");
  const lastTwo = labels.slice(-2).join(".");
  const take = TWO_LABEL_SUFFIXES.has(lastTwo) ? 3 : 2;
  return labels.slice(-take).join(".");
}

/**
 * The host itself, then each parent down to (and including) its registrable domain, nearest first:
 * `a.mail.google.com` -> [`a.mail.google.com`, `mail.google.com`, `google.com`].
 */
export function hostAndParents(host: string): string[] {
  const site = registrableDomain(host);
  const out = [host];
  let current = host;
  while (current !== site && current.includes(".")) {
    current = current.slice(current.indexOf(".") + 1);
    out.push(current);
  }
  return out;
}

/**
 * Whether a cookie domain belongs to a connector's host: the host itself, one of its parents within
 * the same registrable domain (the SSO parent, e.g. `.google.com` for `mail.google.com`), or one of
 * its sub-domains. Siblings (`accounts.google.com` for `mail.google.com`) and other sites do not.
 */
export function cookieDomainBelongs(cookieDomain: string, host: string): boolean {
  const domain = cookieDomain.trim().toLowerCase().replace(/^\./, "");
  if (!domain) return false;
  if (hostAndParents(host).includes(domain)) return true;
  return domain.endsWith("." + host);
}
