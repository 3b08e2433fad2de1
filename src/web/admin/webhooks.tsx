import type { AdminView } from './frame.tsx';
import { Checkbox, CsrfField, ErrorSummary, Select, TextArea, TextField, type FieldErrors } from './form-parts.tsx';
import { ActionButton, When } from './people-parts.tsx';
import type { DeliveryView, WebhookView } from '../../services/webhooks/webhooks-service.ts';
import { RegionTable } from './region-table.tsx';

/** What the pages show of the admin API's subscription and delivery (the secret stays out of the page). */
export type WebhookRow = Omit<WebhookView, 'secret'>;
export type DeliveryRow = Pick<DeliveryView, 'id' | 'type' | 'record' | 'status' | 'attempts' | 'last_error' | 'created_at'>;

/** A subscription as form values (types one pattern per line). */
export function webhookValues(webhook: WebhookRow): Record<string, string> {
  return {
    url: webhook.url,
    description: webhook.description,
    types: webhook.types.join('\n'),
    visibility: webhook.visibility,
    include_objects: webhook.include_objects ? '1' : '',
    active: webhook.active ? '1' : '',
  };
}

export const NEW_WEBHOOK_VALUES: Record<string, string> = { url: '', description: '', types: '*', visibility: 'public', include_objects: '', active: '1' };

/** `/admin/webhooks/`: the subscriptions. */
export function WebhooksTable({ view, webhooks }: { view: AdminView; webhooks: WebhookRow[] }) {
  return (
    <>
      <p>
        <a class="button" href={view.adminUrl('/webhooks/new')}>
          {view.t('rec_new_webhook')}
        </a>
      </p>
      {webhooks.length === 0 ? (
        <p>{view.t('rec_no_webhooks')}</p>
      ) : (
        <RegionTable labelledBy="webhooks-caption" caption={view.t('rec_webhooks')} columns={[view.t('rec_field_url'), view.t('rec_field_types'), view.t('rec_col_state'), view.t('rec_col_last_success'), view.t('rec_col_failures')]}>
          {webhooks.map((webhook) => (
            <tr>
              <th scope="row">
                <a href={view.adminUrl(`/webhooks/${webhook.id}/`)}>{webhook.url}</a>
                {webhook.description && <div class="hint">{webhook.description}</div>}
              </th>
              <td>{webhook.types.join(', ')}</td>
              <td>{view.t(webhook.active ? 'rec_active' : 'rec_inactive')}{webhook.disabled_reason ? ` (${webhook.disabled_reason})` : ''}</td>
              <td><When value={webhook.last_success_at} /></td>
              <td>{webhook.consecutive_failures}</td>
            </tr>
          ))}
        </RegionTable>
      )}
    </>
  );
}

/** The subscription form of 80 §4.1: create (`/webhooks/new`) or save (`/webhooks/{id}/`). */
export function WebhookForm({ view, action, values, errors, unplaced, creating }: { view: AdminView; action: string; values: Record<string, string>; errors: FieldErrors; unplaced: string[]; creating: boolean }) {
  return (
    <>
      <ErrorSummary errors={errors} unplaced={unplaced} t={view.t} />
      <form method="post" action={action} novalidate>
        <CsrfField token={view.csrfToken} />
        <TextField name="url" label={view.t('rec_field_url')} value={values.url} type="url" required errors={errors} hint={view.t('rec_hint_webhook_url')} />
        <TextField name="description" label={view.t('rec_field_description')} value={values.description} errors={errors} />
        <TextArea name="types" label={view.t('rec_field_types')} value={values.types} errors={errors} hint={view.t('rec_hint_types')} />
        <Select
          name="visibility"
          label={view.t('rec_field_visibility')}
          value={values.visibility}
          options={[
            { value: 'public', label: view.t('rec_visibility_public') },
            { value: 'full', label: view.t('rec_visibility_full') },
          ]}
          errors={errors}
        />
        <Checkbox name="include_objects" label={view.t('rec_field_include_objects')} checked={values.include_objects === '1'} errors={errors} />
        <Checkbox name="active" label={view.t('rec_field_active')} checked={values.active === '1'} errors={errors} />
        <button type="submit" name="action" value={creating ? 'create' : 'save'} class="button">
          {view.t(creating ? 'rec_create' : 'rec_update')}
        </button>
      </form>
    </>
  );
}

/** The actions of an existing subscription and its deliveries table (`?status=failed` filters). */
export function WebhookActions({ view, id, deliveries, failedOnly }: { view: AdminView; id: number; deliveries: DeliveryRow[]; failedOnly: boolean }) {
  const action = view.adminUrl(`/webhooks/${id}/`);
  return (
    <>
      <section aria-labelledby="webhook-actions">
        <h2 id="webhook-actions">{view.t('rec_col_actions')}</h2>
        <ActionButton view={view} action={action} name="ping" label={view.t('rec_ping')} />
        <ActionButton view={view} action={action} name="rotate_secret" label={view.t('rec_rotate_secret')} />
        <ActionButton view={view} action={action} name="delete" label={view.t('rec_delete')} />
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">{view.t('rec_deliveries')}</h2>
        <p>
          {failedOnly ? (
            <a href={action}>{view.t('rec_all_deliveries')}</a>
          ) : (
            <a href={view.adminUrl(`/webhooks/${id}/`, { status: 'failed' })}>{view.t('rec_failed_deliveries')}</a>
          )}
        </p>
        {deliveries.length === 0 ? (
          <p>{view.t('rec_no_deliveries')}</p>
        ) : (
          <RegionTable labelledBy="deliveries" columns={[view.t('rec_col_created'), view.t('rec_col_type'), view.t('rec_col_state'), view.t('rec_col_attempts'), view.t('rec_col_error'), view.t('rec_col_actions')]}>
            {deliveries.map((delivery) => (
              <tr>
                <td><When value={delivery.created_at} /></td>
                <td>{delivery.type}{delivery.record ? ` ${delivery.record}` : ''}</td>
                <td>{delivery.status}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.last_error ?? '—'}</td>
                <td>
                  <ActionButton view={view} action={action} name="redeliver" label={view.t('rec_redeliver')} fields={{ message_id: String(delivery.id) }} />
                </td>
              </tr>
            ))}
          </RegionTable>
        )}
      </section>
    </>
  );
}
