/**
 * A route's path template (Fastify's syntax, `/api/entries/:id`) filled with its params, each
 * one URI-encoded, and its query appended. A param the template names but the input lacks is
 * a programming error, thrown before anything is sent.
 */
export function fillRoutePath(template: string, params: Readonly<Record<string, unknown>> = {}, query?: object): string {
  const path = template.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`The call of ${template} lacks its ":${name}" parameter.`);
    return encodeURIComponent(String(value));
  });
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}
