/**
 * The one-shot listener on 127.0.0.1 that the browser is sent back to after signing in (RFC 8252:
 * a loopback redirect on any port). It waits for the answer carrying our `state`, and shows the
 * person a short page saying how it went.
 */
import type { ServerResponse } from "node:http";
import { nodeHttp } from "../core/builtins.js";
import type { AddressInfo } from "node:net";
import { AuthError } from "./types.js";
import { durationInWords } from "../core/duration.js";

export const CALLBACK_PATH = "/callback";

export interface CallbackListener {
  /** `http://127.0.0.1:<port>/callback` */
  redirectUri: string;
  /**
   * Resolves with the callback's URL once the browser arrives with `state`, then `finish` must be
   * called with what to show it. Rejects after `timeoutMs`.
   */
  wait(state: string, timeoutMs: number): Promise<{ url: URL; finish(outcome: { ok: boolean; message: string }): void }>;
  close(): void;
}

export async function listenForCallback(): Promise<CallbackListener> {
  let arrived: ((url: URL, res: ServerResponse) => void) | undefined;
  let expectedState = "";
  const server = nodeHttp().createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== CALLBACK_PATH) {
      page(res, 404, "Not found", "This address only takes the browser back to the reduck command line.");
      return;
    }
    // Anything without our state is not the answer to our request (a stale tab, another site):
    // turn it away and keep waiting for the real one.
    if (url.searchParams.get("state") !== expectedState || !arrived) {
      page(
        res,
        400,
        "Not this sign-in",
        "This is not the sign-in the reduck command is waiting for. Go back to the terminal and start again with reduck login.",
      );
      return;
    }
    const deliver = arrived;
    arrived = undefined;
    deliver(url, res);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const close = () => {
    server.close();
    server.closeAllConnections();
  };

  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    close,
    wait(state, timeoutMs) {
      expectedState = state;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          arrived = undefined;
          reject(new AuthError(`no sign-in came back from the browser within ${durationInWords(timeoutMs)}: run \`reduck login\` again`, "refused"));
        }, timeoutMs);
        arrived = (url, res) => {
          clearTimeout(timer);
          resolve({
            url,
            finish: ({ ok, message }) =>
              ok ? page(res, 200, "Signed in to Reduck", message) : page(res, 400, "Sign-in failed", `${message}. Go back to the terminal.`),
          });
        };
      });
    },
  };
}

function page(res: ServerResponse, status: number, title: string, message: string): void {
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", connection: "close" });
  res.end(body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}
