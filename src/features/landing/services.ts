import type { Service, ServiceIcon } from "@server/domains/site/schemas.ts";

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The firm's services from `services.list` (a JSON string the server has checked against
 * serviceListSchema, docs/site-content.md, Services), read without zod: the landing page's first
 * load has no room for it (docs/performance.md). Anything that is not a service is left out.
 */
export function readServices(value: string): Service[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry: unknown): Service[] => {
    if (typeof entry !== "object" || entry === null) return [];
    const s = entry as Record<string, unknown>;
    if (!text(s.id) || !text(s.title)) return [];
    return [
      {
        id: text(s.id),
        title: text(s.title),
        description: text(s.description),
        icon: (text(s.icon) || "briefcase") as ServiceIcon,
        link: text(s.link),
        link_text: text(s.link_text),
        form_label: text(s.form_label),
      },
    ];
  });
}
