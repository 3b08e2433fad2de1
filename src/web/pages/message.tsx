import { Frame } from '../frame.tsx';
import { editionPath } from '../links.ts';
import type { PageEnv } from '../model.ts';

/** 404 / 410 pages in the edition's language, with the frame and a way back (55 §2, §5, §7.1). */
export function MessagePage({ env, title, text, link }: { env: PageEnv; title: string; text: string; link?: { href: string; label: string } }) {
  return (
    <Frame env={env} title={title} noindex>
      <h1>{title}</h1>
      <p>{text}</p>
      <p>{link ? <a href={link.href}>{link.label}</a> : <a href={editionPath(env, '/events/')}>{env.t('page_go_to_calendar')}</a>}</p>
    </Frame>
  );
}
