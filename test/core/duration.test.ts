import { expect, test } from "vitest";
import { durationCompact, durationInWords } from "../../src/core/duration.js";

test("durations in words: ms below a second, one decimal below ten seconds, whole minutes as minutes", () => {
  expect(durationInWords(300)).toBe("300 ms");
  expect(durationInWords(1_000)).toBe("1 second");
  expect(durationInWords(1_500)).toBe("1.5 seconds");
  expect(durationInWords(9_960)).toBe("10 seconds");
  expect(durationInWords(45_400)).toBe("45 seconds");
  expect(durationInWords(60_000)).toBe("1 minute");
  expect(durationInWords(90_000)).toBe("90 seconds");
  expect(durationInWords(300_000)).toBe("5 minutes");
});

test("compact durations for a progress line", () => {
  expect(durationCompact(12_000)).toBe("12s");
  expect(durationCompact(250_000)).toBe("4m10s");
  expect(durationCompact(3_600_000)).toBe("1h00m");
  expect(durationCompact(5_220_000)).toBe("1h27m");
});
