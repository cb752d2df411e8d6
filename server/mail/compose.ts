/** One email in both forms: plain text, and HTML in which every piece of data is escaped. */
type EmailContent = {
  firmName: string;
  /** The recipient's language, for the HTML's `lang` (docs/i18n.md); left out by mails not yet translated. */
  language?: string;
  heading: string;
  paragraphs: string[];
  /** Label/value lines, shown as a table in HTML. */
  details?: Array<[string, string]>;
  action?: { label: string; url: string };
  footer?: string;
};

/**
 * A link in an email to the portal's landing page carrying one token (`/?reset_token=...`), which
 * the page redeems: every emailed link has this shape.
 */
export function portalLink(publicUrl: string, param: string, token: string): string {
  const url = new URL("/", publicUrl);
  url.searchParams.set(param, token);
  return url.toString();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// eslint-disable-next-line no-control-regex -- control characters are what it matches
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

/** Header values must stay on one line, whatever a visitor typed. */
export function oneLine(text: string, max = 150): string {
  // Control characters are exactly what this removes (a CR or LF would start a new header).
  return text.replace(CONTROL_CHARACTERS, " ").trim().slice(0, max);
}

export function composeEmail(content: EmailContent): { text: string; html: string } {
  const text = [
    content.heading,
    "",
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(content.details?.length ? [...content.details.map(([k, v]) => `${k}: ${v}`), ""] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ""] : []),
    ...(content.footer ? [content.footer, ""] : []),
    `- ${content.firmName}`,
  ].join("\n");

  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s).replace(/\n/g, "<br>")}</p>`;
  const html = [
    "<!doctype html>",
    `<html${content.language ? ` lang="${escapeHtml(content.language)}"` : ""}><body style="margin:0;padding:24px;background:#f5f5f4;font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a">`,
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">',
    `<p style="margin:0 0 24px;font-weight:600;color:#1e3a5f">${escapeHtml(content.firmName)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(content.heading)}</h1>`,
    ...content.paragraphs.map(p),
    content.details?.length
      ? `<table style="border-collapse:collapse;margin:0 0 16px">${content.details
          .map(
            ([k, v]) =>
              `<tr><th style="text-align:left;padding:4px 16px 4px 0;vertical-align:top">${escapeHtml(k)}</th><td style="padding:4px 0">${escapeHtml(v).replace(/\n/g, "<br>")}</td></tr>`,
          )
          .join("")}</table>`
      : "",
    content.action
      ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#047857;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#475569;word-break:break-all">${escapeHtml(content.action.url)}</p>`
      : "",
    // Blank lines part paragraphs and single newlines break lines, as in the text form, so a link
    // or token set on a line of its own stays there.
    ...(content.footer ?? "")
      .split(/\n{2,}/)
      .filter(Boolean)
      .map((part) => `<p style="margin:0 0 12px;font-size:13px;color:#475569">${escapeHtml(part).replace(/\n/g, "<br>")}</p>`),
    "</div></body></html>",
  ].join("");
  return { text, html };
}
