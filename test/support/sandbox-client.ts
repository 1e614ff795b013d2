/**
 * The sandbox in-process for the root's tests, with clients built from the client's source (the
 * code under test); the sandbox's own tests use the published build instead.
 */
import { useSandboxInProcess, type SandboxInProcess } from "@reduck-client/sandbox/testing";
import { createReduckClient, type ReduckClient } from "../../src/index.js";

/** Call at the top of a test file; see `useSandboxInProcess` for `fresh`, `selfCheck` and `seed`. */
export function useSandboxClient(options: Parameters<typeof useSandboxInProcess>[1] = {}): SandboxInProcess<ReduckClient> {
  return useSandboxInProcess(createReduckClient, options);
}
