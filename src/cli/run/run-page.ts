/**
 * `reduck runs trace RUN_ID --html FILE` / `--open`: the run's page, written and opened.
 */
import type { ReduckClient } from "../../core/client.js";
import { readRunTrace, type RunTraceRead } from "../../report/read-trace.js";
import { renderTraceHtml } from "../../report/trace-page.js";
import { fromReduckError } from "../shell/errors.js";
import { openPage } from "./open-page.js";
import { temporaryPage, writePage } from "./pages.js";
import { onThisMachine, SIMULATED_PAGE } from "./trace-screenshots.js";

export interface RunPageRequest {
  client: ReduckClient;
  runId: string;
  /** Where to write it (checked already); a temporary file when not given. */
  file: string | undefined;
  open: boolean;
  /** A line for people on stderr. */
  note: (message: string) => void;
  /** The run as already read (by `--screenshots`), so its screenshots are not fetched twice. */
  read?: RunTraceRead;
}

/**
 * Reads the run, its trace and its screenshots, writes its page and opens it when asked; resolves
 * to the page's path. A run that cannot be read fails the command; a screenshot that cannot be
 * had, or a browser that cannot be opened, is a note (the page is there either way).
 */
export async function writeRunPage(request: RunPageRequest): Promise<string> {
  const { client, runId, note } = request;
  const read = request.read ? { data: request.read } : await readRunTrace({ client, runId });
  if (read.error) throw fromReduckError(read.error, `reading run ${runId}`);
  const { run, trace, images, noTrace, view } = read.data;
  const notes = noTrace ? [`No trace: ${noTrace}`] : [];
  // The page says a trace named no screenshot; on the sandbox, the likely reason too.
  if (!noTrace && trace !== null && !view.screenshots.length && onThisMachine(client.baseUrl)) notes.push(`No screenshots. ${SIMULATED_PAGE}`);
  const html = renderTraceHtml({ run, trace, images, notes });
  const file = request.file ?? (await temporaryPage(`run-${runId}.html`));
  await writePage(file, html);
  // The URL is the service's text: on a terminal, only its printable ASCII (a URL needs no more).
  const shown = (url: string) => url.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).slice(0, 500);
  for (const [url, image] of images) if ("problem" in image) note(`A screenshot is not on the page (${image.problem}): ${shown(url)}`);
  if (request.open) await openPage(file, note);
  return file;
}
