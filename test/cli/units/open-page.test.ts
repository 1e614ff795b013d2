import { describe, expect, test } from "vitest";
import { shellWords } from "../../../src/cli/run/open-page.js";

describe("$BROWSER split into words as a shell splits them (as gh reads it)", () => {
  test.each([
    ["firefox", ["firefox"]],
    ["  firefox   --new-window ", ["firefox", "--new-window"]],
    [`'/opt/My Browser/run' --profile "work one"`, ["/opt/My Browser/run", "--profile", "work one"]],
    ["open\\ me -a", ["open me", "-a"]],
    [`"say \\"hi\\"" ''`, ['say "hi"', ""]],
    ["", []],
  ])("%j", (line, words) => {
    expect(shellWords(line)).toEqual(words);
  });
});
