/**
 * The `response` of a result, made only when someone reads it: building a `Response` loads
 * Node's fetch classes (about 20 ms), which a command-line call that never looks at it should
 * not pay for.
 */
import { NULL_BODY, type Answer } from "./transport.js";

/** `result` with a `response` property that turns `answer` into a `Response` on first read. */
export function withResponse<R extends object>(result: R, answer: Answer | undefined): R & { response: Response | undefined } {
  return withLazyResponse(result, () => (answer ? answerResponse(answer) : undefined));
}

/**
 * `result` with a `response` property that is `makeResponse()`, called on first read and kept: every
 * read gives the same `Response` (whose body can be read once).
 *
 * @example
 * return withLazyResponse({ data, error: undefined }, () => polled.response);
 */
export function withLazyResponse<R extends object>(result: R, makeResponse: () => Response | undefined): R & { response: Response | undefined } {
  let made: Response | undefined;
  let done = false;
  return Object.defineProperty(result, "response", {
    enumerable: true,
    configurable: true,
    get: () => (done ? made : ((done = true), (made = makeResponse()))),
  }) as R & { response: Response | undefined };
}

/** The answer as a standard `Response` (its body readable once), naming the URL that answered. */
export function answerResponse(answer: Answer): Response {
  const response = new Response(NULL_BODY.has(answer.status) ? null : (answer.body as Uint8Array<ArrayBuffer>), {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
  Object.defineProperty(response, "url", { value: answer.url });
  return response;
}
