/**
 * The sandbox in-process for its own tests, with clients from the published `reduck-client`
 * entry, the way users make them (never from the client's source: the sandbox is a witness).
 */
import { createReduckClient, type ReduckClient } from "reduck-client";
import { useSandboxInProcess, type SandboxInProcess } from "../testing/testing.js";

/** Call at the top of a test file; see `useSandboxInProcess` for `fresh`, `selfCheck` and `seed`. */
export function useSandboxWithClient(options: Parameters<typeof useSandboxInProcess>[1] = {}): SandboxInProcess<ReduckClient> {
  return useSandboxInProcess(createReduckClient, options);
}
