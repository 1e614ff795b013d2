/**
 * One GET without the credential and without following a redirect, through the client's own
 * exchange (its proxy, certificate authorities and caller's fetch), under a timer that covers the
 * whole answer and a bound on its size. For what a run left behind (its screenshots): their URLs
 * are their own permission, and whoever follows a redirect must first check where it leads, so
 * the redirect comes back as an answer, never followed here.
 */
import { AttemptGuard } from "./wire/abort.js";
import { AnswerTooLarge } from "./wire/answer-limit.js";
import type { ReduckClient } from "./client.js";
import { clientInternals } from "./client.js";
import { describeFailure } from "./errors.js";
import { exchange } from "./wire/exchange.js";

/** What one hop answered: a redirect's `location`, a body within `maxBytes`, or that it was past them. */
export type HopAnswer =
  | { status: number; location?: string; body?: undefined; tooLarge?: undefined }
  | { status: number; location?: undefined; body: Uint8Array; tooLarge?: undefined }
  | { status: number; location?: undefined; body?: undefined; tooLarge: { declared?: number } };

export interface OneHopOptions {
  /** Bytes past which the body is not read (`tooLarge`). */
  maxBytes: number;
  /** How long the whole answer may take. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The Accept header. */
  accept?: string;
}

/**
 * GETs `url` once through the client's exchange, with the client's User-Agent and no other of its
 * headers. A 3xx with a Location is answered as it is (its body dropped); any other status with
 * its body read up to `maxBytes`. Throws an Error whose message says, in words, why there was no
 * whole answer (the network, the certificate, the time).
 *
 * @example
 * const hop = await getOneHop(client, "https://shots.example/a.png", { maxBytes: 10 * 2 ** 20, timeoutMs: 30_000 });
 * if (hop.location) console.log("redirected to", hop.location);
 */
export async function getOneHop(client: ReduckClient, url: string, options: OneHopOptions): Promise<HopAnswer> {
  const { route, headers } = clientInternals(client);
  const guard = new AttemptGuard(options.timeoutMs, options.signal);
  let finish = () => undefined as void;
  let phase: "request" | "body" = "request";
  try {
    const request = { method: "GET", url, headers: { "User-Agent": headers["User-Agent"] ?? "reduck-client", Accept: options.accept ?? "image/*" } };
    const answer = await guard.race(exchange(route, request, guard, { redirects: 0 }));
    finish = answer.finish;
    if (answer.status >= 300 && answer.status < 400 && answer.headers.location) return { status: answer.status, location: answer.headers.location };
    phase = "body";
    try {
      return { status: answer.status, body: await guard.race(answer.read(options.maxBytes)) };
    } catch (err) {
      if (err instanceof AnswerTooLarge) return { status: answer.status, tooLarge: err.declared === undefined ? {} : { declared: err.declared } };
      throw err;
    }
  } catch (err) {
    throw new Error(describeFailure(err, url, phase).error.error);
  } finally {
    finish();
    guard.dispose();
  }
}
