// The simulated web: what the sandbox's browser gets for any address off this machine. A few hosts
// the example and official scripts need have pages, and saved sites (sites.ts) theirs; anything else
// is a 404 page that says so.
import { atlassian } from "./atlassian.js";
import { csmTestcenter } from "./csm-testcenter.js";
import { discord } from "./discord.js";
import { docusign } from "./docusign.js";
import { drive } from "./drive.js";
import { gmail } from "./gmail.js";
import { escapeHtml, htmlPage, type WebResponse } from "./html.js";
import { siteAnswer } from "./sites.js";
import { slack } from "./slack.js";
import { wise } from "./wise.js";

export type { WebResponse } from "./html.js";

/** The hosts with pages, for the 404 page and the README. */
export const SIMULATED_HOSTS = [
  "mail.google.com",
  "app.docusign.com",
  "csm-testcenter.org",
  "admin.atlassian.com",
  "discord.com",
  "drive.google.com",
  "app.slack.com",
  "wise.com",
  "example.com",
] as const;

/**
 * An empty page on a secure origin of the simulated web. A new page's about:blank is no secure
 * context in this Chromium (no `crypto.subtle`), so `page.setContent` on a page that has not been
 * anywhere yet first comes here: content set by a script behaves as on an https page.
 */
export const BLANK_PAGE_URL = "https://sandbox.invalid/";

function blankPage(): WebResponse {
  return {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    body: "<!doctype html><html><head><title></title></head><body></body></html>",
  };
}

function exampleDomain(): WebResponse {
  return htmlPage({
    title: "Example Domain",
    site: "example.com",
    body: "<main><h1>Example Domain</h1><p>This domain is for use in documentation examples.</p></main>",
  });
}

function notFound(url: URL): WebResponse {
  return htmlPage({
    status: 404,
    title: "404 Not Found",
    site: url.hostname,
    body: `<main><h1>404 — not in the sandbox's simulated web</h1>
<p>The sandbox's browser never leaves this machine, and nothing here answers
<code>${escapeHtml(url.href)}</code>.</p>
<p>Pages exist on: ${SIMULATED_HOSTS.map((h) => `<code>${h}</code>`).join(", ")}.</p></main>`,
  });
}

/**
 * The answer to a browser request for `url` (an address off this machine).
 *
 * @example
 * answerWeb(new URL("https://mail.google.com/mail/u/0/#inbox?compose=new")).status; // 200
 * answerWeb(new URL("https://nowhere.example/")).status; // 404
 */
export function answerWeb(url: URL): WebResponse {
  // A folder of saved pages served as this host (--site HOST=DIR) comes before the sandbox's own pages.
  const saved = siteAnswer(url);
  if (saved) return saved;
  const host = url.hostname.replace(/^www\./, "");
  // app.slack.com and each workspace's own <name>.slack.com.
  if (host.endsWith(".slack.com")) return slack(url) ?? notFound(url);
  switch (host) {
    case "mail.google.com":
      return gmail(url);
    case "app.docusign.com":
      return docusign(url) ?? notFound(url);
    case "csm-testcenter.org":
      return csmTestcenter();
    case "admin.atlassian.com":
      return atlassian(url);
    case "discord.com":
      return discord(url) ?? notFound(url);
    case "drive.google.com":
      return drive(url) ?? notFound(url);
    case "wise.com":
      return wise(url) ?? notFound(url);
    case "example.com":
      return url.pathname === "/" ? exampleDomain() : notFound(url);
    case "sandbox.invalid":
      return blankPage();
    default:
      return notFound(url);
  }
}
