import { options, type VNode } from 'preact';
import { renderDocument } from '../render.ts';

type VNodeHook = NonNullable<typeof options.vnode>;

/**
 * An embed page as HTML (130 §10.1): every link that leaves the embed opens in the top window
 * (`target="_top"`), so visitors read the calendar's pages full size, not inside the frame. The
 * views' components stay unaware of embedding: links are marked as elements are created, during
 * this synchronous render only.
 */
export function renderEmbed(page: VNode, embedPrefix: string): string {
  const previous = options.vnode;
  const mark: VNodeHook = (vnode) => {
    const props = vnode.props as { href?: unknown; target?: unknown };
    if (vnode.type === 'a' && typeof props.href === 'string' && !props.href.startsWith(embedPrefix) && !props.href.startsWith('#')) props.target = '_top';
    previous?.(vnode);
  };
  options.vnode = mark;
  try {
    return renderDocument(page);
  } finally {
    options.vnode = previous;
  }
}
