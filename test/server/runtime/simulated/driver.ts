// The sandbox's side of the simulated page, which lives in the run's own process (see
// ../isolation/pages.ts): it opens documents there, sends one operation at a time and, as
// Playwright does with a browser, tries an action again until its element is there (or visible,
// or editable) or the timeout passes. What comes back is read as the run's: checked for shape,
// never trusted for more than the value it carries.
import { setTimeout as sleep } from "node:timers/promises";
import type { PageChannel } from "../script-runner.js";
import { webDocument, type PageDocument } from "./documents.js";

/** What lasts between the steps of a sequential run (one browser): where the page is, and its document's source. */
export interface BrowserState {
  url: string;
  document?: PageDocument;
}

export function newBrowserState(): BrowserState {
  return { url: "about:blank" };
}

/** How long to wait before each try again of an action whose element is not ready (then the last, again and again). */
const RETRY_MS = [0, 10, 20, 50, 100, 100, 250, 500];

type Reply = { ok: true; value?: unknown } | { ok: false; wait: string } | { ok: false; error: { name: string; message: string } };

function errorOf(name: string, message: string): Error {
  const error = new Error(message);
  if (name !== "Error") error.name = name;
  return error;
}

/** The page's answer, read as untrusted JSON: its shape checked, anything else an error. */
function readReply(text: string): Reply & { url?: string; navigate?: string } {
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    throw new Error("the page's answer could not be read");
  }
  if (typeof reply !== "object" || reply === null) throw new Error("the page's answer could not be read");
  const { ok, value, wait, error, url, navigate } = reply as Record<string, unknown>;
  const where = { ...(typeof url === "string" ? { url } : {}), ...(typeof navigate === "string" ? { navigate } : {}) };
  if (ok === true) return { ok: true, value, ...where };
  if (typeof wait === "string") return { ok: false, wait, ...where };
  const { name, message } = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  return {
    ok: false,
    error: { name: typeof name === "string" ? name : "Error", message: typeof message === "string" ? message : "the page failed" },
    ...where,
  };
}

const navigable = (url: string) => /^https?:\/\//i.test(url) && URL.canParse(url);

export class PageDriver {
  /** A step's page opens at its first operation (a body that never touches it opens none). */
  private opening?: Promise<void>;
  /** Playwright's default timeout, which page.setDefaultTimeout changes for the rest of the step. */
  timeoutMs: number;

  constructor(
    private readonly state: BrowserState,
    private readonly channel: PageChannel,
    actionTimeoutMs: number,
  ) {
    this.timeoutMs = actionTimeoutMs;
  }

  /** Opens `document` in a fresh realm of the page. */
  async open(document: PageDocument): Promise<void> {
    const opened = this.exchange({ op: "open", url: document.url, html: document.html }, { code: document.code, fresh: true });
    // Operations that come meanwhile wait for this opening; its failure (the run ended, say) is
    // this call's to report, and theirs when they come, never an unhandled rejection.
    this.opening = opened.then(() => undefined);
    this.opening.catch(() => {});
    await opened;
    this.state.url = document.url;
    this.state.document = document;
  }

  /** The page as the step before left it (its document opened again), or a blank one. */
  private ensureOpen(): Promise<void> {
    this.opening ??= (async () => {
      const document = this.state.document ?? webDocument(this.state.url);
      await this.open(document === "download" ? { url: this.state.url, status: 200, html: "", code: undefined } : document);
    })();
    return this.opening;
  }

  /** Goes to `url` (checked by the caller): its document, or an error when it answers with a file. */
  async load(url: string): Promise<{ status: number; url: string }> {
    const document = webDocument(url);
    if (document === "download") throw new Error(`Download is starting (${url} answers with a file: fetch it with builtins.download)`);
    await this.open(document);
    return { status: document.status, url };
  }

  /** One operation and its answer, the page's whereabouts noted; a move to another document made. */
  private async exchange(op: object, options: { code?: string; fresh?: boolean } = {}): Promise<Reply> {
    const reply = readReply(await this.channel.send(JSON.stringify(op), options));
    if (reply.url !== undefined && (reply.url === "about:blank" || URL.canParse(reply.url))) this.state.url = reply.url;
    if (reply.navigate !== undefined && navigable(reply.navigate)) await this.load(reply.navigate);
    return reply;
  }

  /** The page's answer to `op` (opening the page first), its error thrown. */
  async ask(op: object, code?: string): Promise<unknown> {
    return this.settle(op, { code, timeoutMs: this.timeoutMs, waiting: "" });
  }

  /**
   * The answer to `op`, tried again while the page says to wait, until `timeoutMs` (0: no limit
   * but the run's own) has passed: then a TimeoutError saying what it waited for.
   */
  async settle(op: object, { code, timeoutMs, waiting }: { code?: string; timeoutMs: number; waiting: string }): Promise<unknown> {
    await this.ensureOpen();
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Number.POSITIVE_INFINITY;
    for (let attempt = 0; ; attempt++) {
      const reply = await this.exchange(op, { code });
      if (reply.ok) return reply.value;
      if ("error" in reply) throw errorOf(reply.error.name, reply.error.message);
      if (Date.now() >= deadline) throw errorOf("TimeoutError", `Timeout ${timeoutMs}ms exceeded. (waiting for ${waiting || "the page"}: ${reply.wait})`);
      await sleep(Math.min(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!, Math.max(0, deadline - Date.now())));
    }
  }
}
