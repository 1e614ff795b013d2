// The catalogue leads somewhere: a description (of a script, or of one of its inputs or outputs)
// that names another script names one the sandbox has. A name like `search_emails` or
// `admin.atlassian.com/list_invoices` is a script name unless it is one of that script's own
// input or output names (`transaction_account`, `dry_run`); an agent told to call a script the
// sandbox lacks cannot go on.
import { describe, expect, test } from "vitest";
import { loadCatalogue, type CatalogueEntry } from "./catalogue.js";

/** Every description in a contract, with where it is. */
function descriptions(entry: CatalogueEntry): Array<{ where: string; text: string }> {
  const found = [{ where: "description", text: entry.description }];
  const visit = (node: unknown, where: string): void => {
    if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${where}[${i}]`));
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "description" && typeof value === "string") found.push({ where, text: value });
        else visit(value, `${where}.${key}`);
      }
    }
  };
  visit(entry.input_schema, "input_schema");
  visit(entry.output_schema, "output_schema");
  return found;
}

/** Every property name anywhere in a contract's schemas. */
function propertyNames(entry: CatalogueEntry): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === "object") {
      const properties = (node as { properties?: unknown }).properties;
      if (properties && typeof properties === "object") for (const name of Object.keys(properties)) names.add(name);
      Object.values(node).forEach(visit);
    }
  };
  visit(entry.input_schema);
  visit(entry.output_schema);
  return names;
}

/** Script-like names in a text: snake_case words, with the host before them when one is written. */
function namedScripts(text: string): Array<{ host?: string; slug: string }> {
  return [...text.matchAll(/(?:\b([a-z0-9-]+(?:\.[a-z0-9-]+)+)\/)?\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/g)].map((m) => ({ host: m[1], slug: m[2]! }));
}

const catalogue = loadCatalogue();
const addresses = new Set(catalogue.map((entry) => `${entry.host}/${entry.slug}`));

describe("every script a catalogue description names is in the catalogue", () => {
  test.each(catalogue.map((entry) => [`${entry.host}/${entry.slug}`, entry] as const))("%s", (_, entry) => {
    const own = propertyNames(entry);
    const missing = descriptions(entry).flatMap(({ where, text }) =>
      namedScripts(text)
        .filter(({ host, slug }) => !(host === undefined && own.has(slug)) && !addresses.has(`${host ?? entry.host}/${slug}`))
        .map(({ host, slug }) => `${where} names ${host ? `${host}/` : ""}${slug}`),
    );
    expect(missing).toEqual([]);
  });

  test("the check finds a name the catalogue lacks, and passes one it has", () => {
    expect(namedScripts("Hex thread id as returned by search_emails.")).toEqual([{ host: undefined, slug: "search_emails" }]);
    expect(namedScripts("that admin.atlassian.com/list_invoices returns")).toEqual([{ host: "admin.atlassian.com", slug: "list_invoices" }]);
    expect(addresses.has("mail.google.com/search_emails")).toBe(false);
    expect(addresses.has("mail.google.com/reply_to_email")).toBe(true);
  });
});
