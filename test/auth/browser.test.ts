import { describe, expect, test } from "vitest";
import { browserCommand } from "../../src/auth/browser.js";

const link = "http://127.0.0.1:4020/auth?client_id=a&scope=script%3Aread+profile&resource=http%3A%2F%2F127.0.0.1%3A4010";

describe("opening the browser on each system", () => {
  test("macOS: open", () => {
    expect(browserCommand("darwin", link)).toEqual({ command: "open", args: [link] });
  });

  test("Linux and other Unix systems: xdg-open", () => {
    expect(browserCommand("linux", link)).toEqual({ command: "xdg-open", args: [link] });
    expect(browserCommand("freebsd", link)).toEqual({ command: "xdg-open", args: [link] });
  });

  test("Windows: cmd.exe's start, the link quoted so & does not end the command", () => {
    expect(browserCommand("win32", link)).toEqual({ command: "cmd.exe", args: ["/d", "/s", "/c", `start "" "${link}"`], verbatim: true });
  });
});
