/** scriptAt: a script's address as text into the parts runScript takes. */
import { describe, expect, test } from "vitest";
import { scriptAt } from "../../src/index.js";

describe("scriptAt", () => {
  test("handle/host/slug into its parts; host/slug (your own script) without a handle", () => {
    expect(scriptAt("reduck/mail.google.com/send_email")).toEqual({ handle: "reduck", host: "mail.google.com", slug: "send_email" });
    expect(scriptAt("@alice/x.com/post")).toEqual({ handle: "@alice", host: "x.com", slug: "post" });
    const own = scriptAt("example.com/get_title");
    expect(own).toEqual({ host: "example.com", slug: "get_title" });
    expect("handle" in own).toBe(false);
  });

  test("text that is not an address is a TypeError that says what is wrong", () => {
    expect(() => scriptAt("send_email")).toThrow(
      new TypeError('scriptAt: "send_email" is not a script address: expected [handle/]host/slug, e.g. reduck/mail.google.com/send_email'),
    );
    expect(() => scriptAt("a/b/c/d")).toThrow(TypeError);
    expect(() => scriptAt("reduck/mail.google.com/Send Email")).toThrow(/is not a script slug/);
  });
});
