// The documents the simulated page opens: the simulated web's page at an address (the same pages
// the real browser gets, browser/web/), or content a script sets; each as its HTML and the code of
// its scripts, which the page compiles in its own realm in the run's process.
import { answerWeb, BLANK_PAGE_URL } from "../browser/web/index.js";

export { BLANK_PAGE_URL };

/** A document as the page opens it. */
export interface PageDocument {
  url: string;
  status: number;
  html: string;
  /** Its scripts as one expression: an array of functions, each running one script (none: undefined). */
  code: string | undefined;
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** The inline scripts of `html` that a browser runs (classic or module, not data blocks), as code for the page. */
export function scriptsOf(html: string): string | undefined {
  const bodies: string[] = [];
  for (const [, attributes = "", body = ""] of html.matchAll(SCRIPT)) {
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (/\bsrc\s*=/i.test(attributes) || (type && !["module", "text/javascript", "application/javascript"].includes(type))) continue;
    if (body.trim()) bodies.push(body);
  }
  return bodies.length ? `[${bodies.map((body) => `(function () {\n${body}\n})`).join(",\n")}]` : undefined;
}

/**
 * The simulated web's answer at `url` as a document, or "download" when the address answers with
 * a file (the invoices of admin.atlassian.com) rather than a page.
 *
 * @example
 * webDocument("https://example.com/"); // { url, status: 200, html: "<!doctype html>…", code: undefined }
 */
export function webDocument(url: string): PageDocument | "download" {
  if (url === "about:blank") return { url, status: 200, html: "", code: undefined };
  const answer = answerWeb(new URL(url));
  if (typeof answer.body !== "string") return "download";
  return { url, status: answer.status, html: answer.body, code: scriptsOf(answer.body) };
}

/** Content a script sets with page.setContent, at the page's address (a secure one when it has been nowhere yet). */
export function contentDocument(url: string, html: string): PageDocument {
  return { url: url === "about:blank" ? BLANK_PAGE_URL : url, status: 200, html, code: scriptsOf(html) };
}
