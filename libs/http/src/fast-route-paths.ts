/**
 * Route templates with parameters (`/items/:collection/:id`) for the fast lane: a template is its segments, a
 * `:name` segment takes any one non-empty segment of the path. The lane matches only what it can match exactly as
 * express would and leaves the rest to express (which answers with the same handlers): a segment with `%` (express
 * decodes it), a trailing slash, another letter case.
 */
export type PathTemplate = readonly string[];

const isParam = (segment: string) => segment.charCodeAt(0) === 58; /* : */

/** A template's segments (`/items/:collection` → `['items', ':collection']`), or undefined for an exact path. */
export function templateOf(path: string): PathTemplate | undefined {
  const segments = path.split('/').slice(1);
  for (const s of segments) {
    // express's templates can say more (`:id?`, `*rest`, `{…}`): such a route stays on the router only
    if (s === '' || (isParam(s) && !/^:[A-Za-z_$][\w$]*$/.test(s)) || (!isParam(s) && /[:*?{}()]/.test(s))) {
      throw new Error(`fast route ${path}: only literal and ":name" segments are supported`);
    }
  }
  return segments.some(isParam) ? segments : undefined;
}

/** The parameters of `path` (starting with `/`, no query) under `template`, or undefined when it does not match. */
export function matchTemplate(template: PathTemplate, path: string): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  let start = 1;
  for (let i = 0; i < template.length; i++) {
    const last = i === template.length - 1;
    let end = path.indexOf('/', start);
    if (last ? end !== -1 : end === -1) return undefined; // fewer or more segments
    if (last) end = path.length;
    const part = path.slice(start, end);
    const t = template[i]!;
    if (isParam(t)) {
      if (part === '' || part.includes('%')) return undefined;
      (params ??= {})[t.slice(1)] = part;
    } else if (part !== t) return undefined;
    start = end + 1;
  }
  return params ?? {};
}

/**
 * Whether some path could match both templates (the same number of segments, each pair a parameter or the same
 * literal, compared without letter case as express compares them). A fast route must be the first route express
 * would choose for every path the lane gives it: `fastRoute` refuses one that an earlier route could shadow.
 */
export function templatesOverlap(a: PathTemplate, b: string): boolean {
  const other = b.split('/').slice(1);
  if (other.length !== a.length) return false;
  return a.every((s, i) => isParam(s) || isParam(other[i]!) || /[*?{}()]/.test(other[i]!) || s.toLowerCase() === other[i]!.toLowerCase());
}
