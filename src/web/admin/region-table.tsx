import type { ComponentChildren } from 'preact';

/**
 * A back-office table inside a labelled, focusable region, so a table wider than the screen
 * scrolls on its own and keyboard users can reach it (100 §10). With a caption, the caption
 * is the region's label; otherwise `labelledBy` names a heading outside.
 */
export function RegionTable({ labelledBy, caption, columns, children }: { labelledBy: string; caption?: string; columns: (string | false)[]; children: ComponentChildren }) {
  return (
    <div class="admin-table-region" role="region" aria-labelledby={labelledBy} tabindex={0}>
      <table>
        {caption !== undefined && <caption id={labelledBy}>{caption}</caption>}
        <thead>
          <tr>
            {columns.filter((column) => column !== false).map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
