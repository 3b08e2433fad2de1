import { renderToString } from 'preact-render-to-string';

/** What a message says: paragraphs, labelled facts, links; every value escaped by the renderer. */
export interface MailContent {
  lang: string;
  heading: string;
  paragraphs: string[];
  facts: { label: string; value: string }[];
  links: { label: string; href: string }[];
}

/** The HTML part (120 §10.2): no remote images, no tracking, no styles to load. */
export function mailHtml(content: MailContent): string {
  return `<!doctype html>\n${renderToString(
    <html lang={content.lang}>
      <head><meta charset="utf-8" /><title>{content.heading}</title></head>
      <body>
        <h1>{content.heading}</h1>
        {content.paragraphs.map((paragraph) => <p>{paragraph}</p>)}
        {content.facts.length > 0 ? (
          <dl>{content.facts.map((fact) => <><dt>{fact.label}</dt><dd>{fact.value}</dd></>)}</dl>
        ) : null}
        {content.links.map((link) => <p><a href={link.href}>{link.label}</a></p>)}
      </body>
    </html>,
  )}`;
}

/** The text part: the same content, one line per fact. */
export function mailText(content: MailContent): string {
  return [
    content.heading,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...content.facts.map((fact) => `${fact.label}: ${fact.value}`),
    ...(content.facts.length > 0 ? [''] : []),
    ...content.links.map((link) => `${link.label}: ${link.href}`),
    '',
  ].join('\n');
}
