/**
 * Type-level tests of the error values: `npm test` runs `tsc --noEmit` (strict) over this file,
 * so each `@ts-expect-error` fails the suite if the mistake it marks ever compiles, and each
 * `expectTypeOf` if a kind stops narrowing to the fields it always has.
 */
import { expectTypeOf, test } from "vitest";
import {
  createReduckClient,
  findRun,
  getMe,
  runScript,
  type ReduckError,
  type ReduckErrorCode,
  type ReduckRunFailedError,
  type RunError,
  type RunStepOutcome,
} from "../../src/index.js";

const client = createReduckClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9", maxRetries: 0, timeoutMs: 1 });

test("each kind narrows to the fields it always has", () => {
  const compileOnly = async () => {
    const { error } = await getMe({ client });
    if (!error) return;
    switch (error.kind) {
      case "http":
        expectTypeOf(error.status).toEqualTypeOf<number>();
        break;
      case "network":
        expectTypeOf(error.cause).toEqualTypeOf<string>();
        break;
      case "invalid_request":
        expectTypeOf(error.code).toEqualTypeOf<ReduckErrorCode>();
        break;
      case "run_failed":
        expectTypeOf(error.runId).toEqualTypeOf<string>();
        expectTypeOf(error).toEqualTypeOf<ReduckRunFailedError>();
        break;
      case "timeout":
      case "aborted":
      case "invalid_response":
      case "credential":
        // Not narrowed: these kinds do not always have a status.
        expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
        break;
      default:
        // Every kind is handled above: a new one would make this a type error.
        expectTypeOf(error).toBeNever();
    }
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("what worked before still compiles: the message, optional fields on the union, RunError", () => {
  const compileOnly = async () => {
    const { error } = await runScript({ client, script: { host: "x.com", slug: "s" } });
    if (!error) return;
    expectTypeOf(error.error).toEqualTypeOf<string>();
    expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
    expectTypeOf(error.runId).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.errorType).toEqualTypeOf<string | undefined>();
    expectTypeOf(error).toEqualTypeOf<RunError>();
    expectTypeOf<RunError>().toEqualTypeOf<ReduckError>();
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("codes are a closed set, and kinds decide the required fields", () => {
  const compileOnly = () => {
    const tooLarge: ReduckErrorCode = "file_too_large";
    // @ts-expect-error not a code of the library's
    const made: ReduckErrorCode = "file_too_big";
    // @ts-expect-error an http error always has its status
    const http: ReduckError = { kind: "http", error: "x" };
    // @ts-expect-error a run's failure always names its run
    const failed: ReduckError = { kind: "run_failed", error: "x" };
    // @ts-expect-error an invalid request always says why, as a code
    const invalid: ReduckError = { kind: "invalid_request", error: "x" };
    // @ts-expect-error a network failure always has its cause
    const network: ReduckError = { kind: "network", error: "x" };
    return [tooLarge, made, http, failed, invalid, network];
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("a run's result carries its outcomes; findRun gives a run or null", () => {
  const compileOnly = async () => {
    const result = await runScript({ client, scripts: [{ host: "x.com", slug: "s" }] });
    expectTypeOf(result.outcomes).toEqualTypeOf<RunStepOutcome[] | undefined>();
    const found = await findRun({ client, script: "reduck/x.com/s", since: new Date() });
    if (found.error) return;
    expectTypeOf(found.data?.id).toEqualTypeOf<string | undefined>();
    // @ts-expect-error since is required: when the run was sent
    void findRun({ client, script: "reduck/x.com/s" });
  };
  expectTypeOf(compileOnly).toBeFunction();
});
