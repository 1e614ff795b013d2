import { Agent } from "undici";

let agent: Agent | undefined;

/**
 * Node's fetch gives up waiting for response headers after 300 s and between body chunks
 * after 300 s. A run answers only when the script is done, which can take minutes, so run
 * requests go through an agent with both limits off. (Catalogue calls keep their timeout.)
 */
export function runDispatcher(): Agent {
  agent ??= new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  return agent;
}
