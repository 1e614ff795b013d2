/**
 * Every hint the CLI adds is reached from a structured field (an error's code, a refused client
 * option) or from a named sentence of the service's, and each is reached here: a hint added to
 * the tables without a case below fails the suite, and so does a hint that goes missing.
 *
 * The library's cases are made of fields alone, with words that mean nothing: the hint must not
 * depend on how the library words its message. The service's cases are the sandbox's own words,
 * asked of it through the library in-process: if it rewords a sentence, its hint goes missing here.
 */
import { describe, expect, test } from "vitest";
import { ClientOptionError, createReduckClient, listScripts, runScript, type ReduckError, type ReduckErrorCode } from "../../../src/index.js";
import { clientOptionWords, FROM_CODES, FROM_OPTIONS, SERVICE_SENTENCES, serviceHints } from "../../../src/cli/shell/cli-words.js";
import { fromReduckError } from "../../../src/cli/shell/errors.js";
import { useInProcessSandbox } from "../../support/sandbox.js";

const sandbox = useInProcessSandbox({ folder: "reduck-cli-words-" });

/** Words the library might use one day: no hint may hang on them. */
const ANY_WORDS = "something went wrong in words that may change";

/** One error per code the CLI has a hint for, made of fields alone. */
const CODE_CASES: Record<string, ReduckError> = {
  certificate_refused: { kind: "network", cause: "SELF_SIGNED_CERT_IN_CHAIN", code: "certificate_refused", error: ANY_WORDS },
  proxy_failed: { kind: "network", cause: "ECONNREFUSED", code: "proxy_failed", error: ANY_WORDS },
  run_redirected: { kind: "http", status: 307, code: "run_redirected", error: ANY_WORDS },
  run_not_found: { kind: "http", status: 404, code: "run_not_found", batchId: "b1", error: ANY_WORDS },
  run_continues: { kind: "aborted", code: "run_continues", batchId: "b2", error: ANY_WORDS },
  run_may_continue: { kind: "network", cause: "ECONNRESET", code: "run_may_continue", sentAt: "2026-01-01T00:00:00.000Z", error: ANY_WORDS },
  invalid_id: { kind: "invalid_request", code: "invalid_id", parameter: "runId", error: ANY_WORDS },
};

/** One refused value per client option the CLI has a hint for. */
const OPTION_CASES: Record<string, () => unknown> = {
  baseUrl: () => createReduckClient({ apiKey: "k", baseUrl: "ftp://example.com" }),
  runBaseUrl: () => createReduckClient({ apiKey: "k", runBaseUrl: "not a url" }),
  proxy: () => createReduckClient({ apiKey: "k", proxy: "socks5://127.0.0.1:1080" }),
};

/** How to make the sandbox say each of the service's sentences, through the library. */
const SENTENCE_CASES: Record<string, () => Promise<string | undefined>> = {
  "no such paired browser": async () =>
    (await runScript({ client: sandbox.client, browser: { deviceId: "00000000-0000-4000-8000-00000000dead" }, script: sleep() })).error?.error,
  "several paired browsers": async () => {
    sandbox.store.setDemoDevices(2);
    return (await runScript({ client: sandbox.client, browser: "extension", script: sleep() })).error?.error;
  },
  "run in your own browser": async () =>
    (
      await runScript({
        client: sandbox.client,
        browser: "cloud",
        script: { handle: "reduck", host: "admin.atlassian.com", slug: "download_invoice", args: { id: "1", transaction_account: "2" } },
      })
    ).error?.error,
  "a version to run": async () =>
    (await runScript({ client: sandbox.client, script: { ...sleep(), version_id: "00000000-0000-4000-8000-000000000000" } })).error?.error,
  "a file's bytes as a multipart part": async () =>
    (
      await runScript({
        client: sandbox.client,
        browser: "cloud",
        script: {
          handle: "reduck",
          host: "mail.google.com",
          slug: "send_email",
          args: { to: "a@b.co", subject: "x" },
          files: { attachment: { relativePath: "a.png" } },
        },
      })
    ).error?.error,
  "no such handle": async () => (await listScripts({ client: sandbox.client, path: { handle: "nosuch" } })).error?.error,
};

function sleep() {
  return { handle: "sandbox", host: "sandbox.test", slug: "sleep", args: { seconds: 0 } };
}

describe("hints from the library's fields", () => {
  test("every code with a hint has a case, and the case reaches it whatever the message says", () => {
    expect(Object.keys(CODE_CASES).sort()).toEqual(Object.keys(FROM_CODES).sort());
    for (const [code, error] of Object.entries(CODE_CASES)) {
      const hint = FROM_CODES[code as ReduckErrorCode]!(error);
      expect(hint, code).toBeTruthy();
      const message = fromReduckError(error).message;
      expect(message, code).toContain(hint);
      expect(message, code).toMatch(new RegExp(`^${ANY_WORDS}\\. `));
    }
  });

  test("the hint that waits again names the run's own id", () => {
    expect(fromReduckError(CODE_CASES.run_continues!).message).toContain("`reduck runs wait b2`");
    expect(fromReduckError({ kind: "timeout", code: "run_continues", runId: "r9", error: ANY_WORDS }).message).toContain("`reduck runs wait r9`");
  });

  test("without the code, the same words get no hint", () => {
    for (const [code, error] of Object.entries(CODE_CASES)) {
      const { code: _, ...bare } = error;
      expect(fromReduckError(bare as ReduckError).message, code).toBe(ANY_WORDS);
    }
  });

  test("every client option with a hint has a case, and a refused value reaches it", () => {
    expect(Object.keys(OPTION_CASES).sort()).toEqual(Object.keys(FROM_OPTIONS).sort());
    for (const [option, make] of Object.entries(OPTION_CASES)) {
      let thrown: unknown;
      try {
        make();
      } catch (err) {
        thrown = err;
      }
      expect(thrown, option).toBeInstanceOf(ClientOptionError);
      expect((thrown as ClientOptionError).option).toBe(option);
      expect(clientOptionWords(thrown as ClientOptionError), option).toContain(FROM_OPTIONS[option]);
    }
  });
});

describe("hints from the service's own sentences", () => {
  test("every named sentence has a case", () => {
    expect(Object.keys(SENTENCE_CASES).sort()).toEqual(SERVICE_SENTENCES.map((s) => s.name).sort());
  });

  for (const sentence of SERVICE_SENTENCES) {
    test(`${sentence.name}: the sandbox says it, and it gets its hint (its example too)`, async () => {
      const said = await SENTENCE_CASES[sentence.name]!();
      expect(said, "the sandbox said nothing").toBeTruthy();
      const match = said!.match(sentence.pattern);
      expect(match, `the sandbox's words: ${said}`).not.toBeNull();
      expect(serviceHints(said!)).toContain(sentence.hint(match!));
      const example = sentence.example.match(sentence.pattern);
      expect(example, `the example: ${sentence.example}`).not.toBeNull();
      expect(serviceHints(sentence.example)).toContain(sentence.hint(example!));
    });
  }
});
