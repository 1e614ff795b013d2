// Routes the HTTP adapter serves straight from the socket instead of through msw's getResponse,
// which clones every request (teeing its body: a 50 MB upload the handler stops reading would pile
// up in the unread branch). The msw handler stays the door for in-process tests; both call the same
// function, so the two doors cannot answer differently.
import type { RequestHandler } from "msw";

export interface DirectRoute {
  method: string;
  /** Whether this route serves a request for that path. */
  matches(pathname: string): boolean;
  /** Answers the request, reading its streamed body itself. */
  respond(request: Request): Promise<Response>;
}

const routes = new WeakMap<RequestHandler, DirectRoute>();

/** Marks an msw handler as also reachable directly over HTTP. Returns the handler. */
export function withDirectRoute<H extends RequestHandler>(handler: H, route: DirectRoute): H {
  routes.set(handler, route);
  return handler;
}

/** The direct routes among a list of handlers (for startHttpServer). */
export function directRoutesOf(handlers: readonly RequestHandler[]): DirectRoute[] {
  return handlers.map((h) => routes.get(h)).filter((r): r is DirectRoute => r !== undefined);
}
