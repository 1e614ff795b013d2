// reduck/csm-testcenter.org/upload_via_uploadfile: upload a file through the CSM-Testcenter HTTP
// upload test page, setting it directly on the page's file field, and return the site's own report
// of what it received (name, size, content type and the SHA-256 it computed over the bytes).
const input = "test-upload.pdf";
if (!files[input]) throw new Error(`bind the file to upload to the input ${input} (from the CLI: file:${input}=PATH)`);

await builtins.goto("https://www.csm-testcenter.org/test?do=show&subdo=common&test=file_upload", { waitUntil: "domcontentloaded" });
const field = 'input[type="file"][name="file_upload"]';
await builtins.waitFor(field, "attached");
await builtins.uploadFile(field, input);

// What the browser holds in the field as the form goes: the name, size and type it will send.
const uploaded = await page.locator(field).evaluate((element) => {
  const [file] = element.files;
  return { field: element.name, name: file.name, size: file.size, type: file.type || "application/octet-stream" };
});

await page.locator('form#upload input[type="submit"]').click();
await builtins.waitFor("#result", "visible");
const resultText = (await page.locator("#result-text").textContent()).trim();
const fields = await page.locator("#result-table tr").evaluateAll((rows) =>
  Object.fromEntries(rows.map((row) => [row.querySelector("th").textContent.trim(), row.querySelector("td").textContent.trim()])),
);
if (!/uploaded successfully/.test(resultText)) throw new Error(`the site did not accept the upload: ${resultText}`);
return { url: page.url(), uploaded, resultText, fields, sha256: fields.SHA256 ? fields.SHA256.toLowerCase() : null };
