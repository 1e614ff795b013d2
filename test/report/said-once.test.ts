/** A failure's error and the service's message for people, said once. */
import { expect, test } from "vitest";
import { errorSaidOnce } from "../../src/report/said-once.js";

test("the message alone when it holds the error (its label aside), with the lines after the error's first kept", () => {
  const message = "@demo/rows.example/echo failed on the site: the site said no";
  expect(errorSaidOnce("Error: the site said no", message)).toBe(message);
  expect(errorSaidOnce("TimeoutError: the site said no\n  at line 2: throw", message)).toBe(`${message}\n  at line 2: throw`);
});

test("the error alone when it holds the message; both only when they differ; whichever there is", () => {
  expect(errorSaidOnce("Error: quota reached (try later)", "try later")).toBe("Error: quota reached (try later)");
  expect(errorSaidOnce("Error: no heading", "Try again later")).toBe("Error: no heading (Try again later)");
  expect(errorSaidOnce("Error: no heading", undefined)).toBe("Error: no heading");
  expect(errorSaidOnce(undefined, "Try again later")).toBe("Try again later");
  expect(errorSaidOnce("", " ")).toBeUndefined();
});
