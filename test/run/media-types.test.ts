/** The built-in table of common media types agrees with mime-types, which stays the fallback. */
import mime from "mime-types";
import { expect, test } from "vitest";
import { COMMON_MEDIA_TYPES, mediaTypeFor } from "../../src/run/media-types.js";

test.each(Object.entries(COMMON_MEDIA_TYPES))(".%s is %s, as mime-types says", (extension, type) => {
  expect(mime.lookup(extension)).toBe(type);
});

test.each([
  ["Banner.PNG", "image/png"],
  ["report.final.pdf", "application/pdf"],
  ["notes.tex", "application/x-tex"], // not in the table: mime-types
  ["data.unknownext", "application/octet-stream"],
  ["Makefile", "application/octet-stream"],
  [".bashrc", "application/octet-stream"],
])("%s is sent as %s", async (name, type) => {
  expect(await mediaTypeFor(name)).toBe(type);
});
