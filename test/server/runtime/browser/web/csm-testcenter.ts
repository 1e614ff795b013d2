// csm-testcenter.org: a plain upload form with two file fields. On submit the page reports what the
// browser held, file by file (name, size, type, and a SHA-256 of the bytes computed in the page),
// in a result table of label and value. It computes in the page because Playwright's routing never
// sees the file parts of a submitted form (Chromium leaves them out of the intercepted body).
import { htmlPage, type WebResponse } from "./html.js";

const BODY = `
<main>
  <h1>HTTP file upload</h1>
  <form id="upload" method="post" enctype="multipart/form-data" action="/test?do=test&amp;subdo=common&amp;test=file_upload">
    <p><label>File 1 <input type="file" name="file_upload"></label></p>
    <p><label>File 2 <input type="file" name="file_upload_2"></label></p>
    <p><label>Comment <input type="text" name="comment"></label></p>
    <p><input type="submit" value="Start HTTP upload"></p>
  </form>
  <section id="result" hidden>
    <h2>Upload result</h2>
    <p id="result-text"></p>
    <table id="result-table"></table>
  </section>
</main>
`;

const SCRIPT = String.raw`
document.getElementById("upload").addEventListener("submit", async (event) => {
  event.preventDefault();
  const rows = [];
  for (const field of document.querySelectorAll('input[type="file"]')) {
    for (const file of field.files) {
      const sha256 = await sha256Of(file);
      rows.push(["Field", field.name], ["Filename", file.name], ["Size", String(file.size)],
        ["Content type", file.type || "application/octet-stream"], ["SHA256", sha256]);
    }
  }
  const table = document.getElementById("result-table");
  table.replaceChildren(...rows.map(([label, value]) => {
    const row = document.createElement("tr");
    row.innerHTML = "<th></th><td></td>";
    row.querySelector("th").textContent = label;
    row.querySelector("td").textContent = value;
    return row;
  }));
  const count = rows.length / 5;
  document.getElementById("result-text").textContent =
    count === 0 ? "No file was uploaded." : count + (count === 1 ? " file" : " files") + " uploaded successfully.";
  document.getElementById("result").hidden = false;
  history.pushState(null, "", event.target.action);
});
`;

/** Any address on csm-testcenter.org (www. included) shows the upload form. */
export function csmTestcenter(): WebResponse {
  return htmlPage({ title: "CSM Testcenter - HTTP file upload", site: "CSM-Testcenter", body: BODY, script: SCRIPT });
}
