import type { Dispatcher } from "undici";

let agent: Promise<Dispatcher> | undefined;

/**
 * Node's fetch gives up waiting for response headers after 300 s and between body chunks
 * after 300 s. A run answers only when the script is done, which can take minutes, so run
 * requests go through an agent with both limits off. (Catalogue calls keep their timeout.)
 * Imported on first use: undici takes longer to load than the whole CLI should take to start.
 */
export function runDispatcher(): Promise<Dispatcher> {
  agent ??= import("undici").then(({ Agent }) => new Agent({ headersTimeout: 0, bodyTimeout: 0 }));
  return agent;
}
