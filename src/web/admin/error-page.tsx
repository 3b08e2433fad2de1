import type { VNode } from 'preact';
import { AdminFrame, PublicFrame, type AdminView, type PublicView } from './frame.tsx';

/** An error page (100 §13) in the frame: with the navigation when signed in, the reduced frame otherwise. */
export function ErrorPage(props: { view: AdminView | PublicView; message: string; code: string }): VNode {
  const { view } = props;
  const body = (
    <>
      <p class="alert" data-code={props.code}>{props.message}</p>
      {'adminUrl' in view ? <p><a href={view.adminUrl('/')}>{view.t('admin_back_to_dashboard')}</a></p> : null}
    </>
  );
  const title = view.t('admin_error_title');
  return 'user' in view ? <AdminFrame view={view} title={title}>{body}</AdminFrame> : <PublicFrame view={view} title={title}>{body}</PublicFrame>;
}
