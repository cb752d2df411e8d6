import { Fragment } from "react";

const LINK = /\bhttps?:\/\/[^\s<>"]+/gi;
/** Punctuation that ends a sentence rather than the address ("see https://irs.gov."). */
const TRAILING = /[.,;:!?)\]'"]+$/;

/**
 * A message's text as written: line breaks kept (pre-wrap), web addresses as links opening in a
 * new tab, and nothing else. React writes the text as text, so markup in a message shows as typed.
 */
export function MessageText({ text }: { text: string }) {
  const parts: Array<{ link?: string; text: string }> = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const trailing = TRAILING.exec(match[0])?.[0] ?? "";
    const href = match[0].slice(0, match[0].length - trailing.length);
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ link: href, text: href });
    last = match.index + href.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return (
    <p className="break-words whitespace-pre-wrap">
      {parts.map((part, i) =>
        part.link ? (
          <a key={i} href={part.link} target="_blank" rel="noopener noreferrer nofollow" className="underline underline-offset-2">
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </p>
  );
}
