// Script addresses as the service knows them: a host is any name of 1 to 253 characters (the API
// description sets its length and nothing else), so the official catalogue's dotless hosts
// (`reduck/ats-tools/detect_ats`) read like any other.
import { describe, expect, test } from "vitest";
import { readAddress } from "../../src/core/words/address.js";

describe("readAddress", () => {
  test("reads a host with no dot, as the official catalogue has (reduck/ats-tools/detect_ats)", () => {
    expect(readAddress("reduck/ats-tools/detect_ats")).toEqual({ handle: "reduck", host: "ats-tools", slug: "detect_ats" });
    expect(readAddress("ats-tools/detect_ats")).toEqual({ handle: undefined, host: "ats-tools", slug: "detect_ats" });
    expect(readAddress("reduck/localhost/x")).toEqual({ handle: "reduck", host: "localhost", slug: "x" });
  });

  test("reads the usual hosts, with a port, upper case or an underscore: the description sets no pattern", () => {
    expect(readAddress("reduck/mail.google.com/send_email")).toEqual({ handle: "reduck", host: "mail.google.com", slug: "send_email" });
    expect(readAddress("@alice/crm.internal:8080/export")).toMatchObject({ host: "crm.internal:8080" });
    expect(readAddress("@alice/Intranet_1/export")).toMatchObject({ host: "Intranet_1" });
  });

  test("a host of 253 characters is read; of 254, refused with its length named", () => {
    const longest = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`;
    expect(longest).toHaveLength(253);
    expect(readAddress(`reduck/${longest}/x`)).toMatchObject({ host: longest });
    expect(readAddress(`reduck/${longest}e/x`)).toEqual({
      problem: expect.stringMatching(/^the host in ".*" is longer than 253 characters: expected \[handle\/\]host\/slug/),
    });
    // Counted by character, as JSON Schema's maxLength counts: 253 two-unit characters still fit.
    expect(readAddress(`reduck/${"😀".repeat(253)}/x`)).toMatchObject({ slug: "x" });
  });

  test("refuses . and .. as a host: a URL path cannot carry them as a segment", () => {
    expect(readAddress("reduck/../send_email")).toEqual({ problem: expect.stringMatching(/^"\.\." is not a host in "reduck\/\.\.\/send_email"/) });
    expect(readAddress("./send_email")).toEqual({ problem: expect.stringMatching(/^"\." is not a host/) });
  });

  test("still refuses what is no address, and a slug outside the service's pattern", () => {
    expect(readAddress("send_email")).toEqual({ problem: expect.stringMatching(/^"send_email" is not a script address/) });
    expect(readAddress("a/b/c/d")).toEqual({ problem: expect.stringMatching(/is not a script address/) });
    expect(readAddress("reduck//send_email")).toEqual({ problem: expect.stringMatching(/is not a script address/) });
    expect(readAddress("reduck/ats-tools/Detect ATS")).toEqual({ problem: expect.stringMatching(/^"Detect ATS" is not a script slug/) });
  });

  test("an owner and a host with the slug left off says so, and the form expected", () => {
    expect(readAddress("reduck/mail.google.com")).toEqual({
      problem: '"reduck/mail.google.com" ends at a host, with no script slug after it: expected [handle/]host/slug, e.g. reduck/mail.google.com/send_email',
    });
    // A dot in the slug of a full address is still a slug outside the pattern.
    expect(readAddress("reduck/mail.google.com/send.email")).toEqual({ problem: expect.stringMatching(/^"send\.email" is not a script slug/) });
  });
});
