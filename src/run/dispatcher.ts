import type { Dispatcher } from "undici";

let agent: Promise<Dispatcher | undefined> | undefined;

/**
 * Node's fetch gives up waiting for response headers after 300 s and between body chunks
 * after 300 s. A run answers only when the script is done, which can take minutes, so run
 * requests through Node's own fetch go through an agent with both limits off. (Catalogue
 * calls keep their timeout; a caller's own fetch gets no such foreign option.)
 * Imported on first use: undici takes longer to load than the whole CLI should take to start.
 * Never rejects (it is started early without waiting): if undici cannot be loaded, runs go
 * without the agent and keep Node's limits.
 */
export function runDispatcher(): Promise<Dispatcher | undefined> {
  agent ??= import("undici").then(
    ({ Agent }) => new Agent({ headersTimeout: 0, bodyTimeout: 0 }),
    () => undefined,
  );
  return agent;
}
