/**
 * The facts of an OpenAPI document, without its prose: every $ref resolved, every
 * description, summary and example dropped. Two documents that agree on every fact
 * (paths, methods, operation ids, parameters, limits, schemas, status codes, security)
 * give equal results whatever their wording or component names.
 */
type Json = any;

const PROSE = new Set(["description", "summary", "title", "example", "examples"]);

export function factsOf(spec: Json, keepPath: (path: string) => boolean): Json {
  const resolve = (ref: string): Json =>
    ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((n: Json, k) => n[k], spec);
  const strip = (node: Json, seen: string[]): Json => {
    if (Array.isArray(node)) return node.map((n) => strip(n, seen));
    if (!node || typeof node !== "object") return node;
    if (typeof node.$ref === "string") {
      if (seen.includes(node.$ref)) return { $recursive: true };
      return strip(resolve(node.$ref), [...seen, node.$ref]);
    }
    const out: Json = {};
    for (const key of Object.keys(node).sort()) {
      if (PROSE.has(key) && typeof node[key] !== "object") continue;
      out[key] = strip(node[key], seen);
    }
    return out;
  };
  const paths: Json = {};
  for (const [p, item] of Object.entries<Json>(spec.paths)) if (keepPath(p)) paths[p] = strip(item, []);
  return { paths, securitySchemes: strip(spec.components?.securitySchemes ?? {}, []), servers: spec.servers };
}

/** Lists where two fact trees differ, as "path: ours vs theirs" lines. */
export function differences(ours: Json, theirs: Json, at = ""): string[] {
  if (JSON.stringify(ours) === JSON.stringify(theirs)) return [];
  if (ours && theirs && typeof ours === "object" && typeof theirs === "object" && !Array.isArray(ours)) {
    const keys = new Set([...Object.keys(ours), ...Object.keys(theirs)]);
    return [...keys].flatMap((k) => differences(ours[k], theirs[k], `${at}/${k}`));
  }
  return [`${at}: ours ${JSON.stringify(ours)?.slice(0, 200)} vs reference ${JSON.stringify(theirs)?.slice(0, 200)}`];
}

/**
 * The service's published operations: everything under /api (catalogue, account and hosted apps).
 * POST /run and GET /batches/{batchId} live on the run host and are described from the docs instead.
 */
export const isServiceOperation = (p: string) => p.startsWith("/api/");

/** Every description and summary longer than a label. */
export function proseOf(spec: Json): string[] {
  const found: string[] = [];
  JSON.stringify(spec, (key, value) => {
    if ((key === "description" || key === "summary") && typeof value === "string" && value.length > 20) found.push(value);
    return value;
  });
  return found;
}
