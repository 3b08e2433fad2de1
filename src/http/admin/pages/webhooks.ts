import { h, type ComponentChildren } from 'preact';
import type { AppDeps } from '../../routes/index.ts';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import type { FieldErrors } from '../../../web/admin/form-parts.tsx';
import { SecretOnce } from '../../../web/admin/people-parts.tsx';
import { NEW_WEBHOOK_VALUES, WebhookActions, WebhookForm, WebhooksTable, webhookValues } from '../../../web/admin/webhooks.tsx';
import type { AdminAnswer, AdminRequest } from '../admin-request.ts';
import { adminView } from '../admin-view.ts';
import { callAdminApi, type ApiOutcome } from '../call-api.ts';
import { adminErrorPage, apiErrorsToFields, refusalPage } from '../errors.ts';
import type { AdminPage } from '../router.ts';

const WEBHOOK = '/webhooks/(?P<id>\\d+)';

function framed(req: AdminRequest, title: string, children: ComponentChildren, status = 200, headers: Record<string, string> = {}): AdminAnswer {
  return { status, body: AdminFrame({ view: adminView(req), title, current: 'webhooks', children }), headers };
}

const FIELDS = ['url', 'description', 'types', 'visibility', 'include_objects', 'active'] as const;

function submitted(req: AdminRequest): Record<string, string> {
  return Object.fromEntries(FIELDS.map((name) => [name, name === 'include_objects' || name === 'active' ? (req.form.has(name) ? '1' : '') : (req.form.get(name) ?? '')]));
}

/** Form values → 80 §4.1's parameters: `types` one pattern per line. */
export function webhookParams(values: Record<string, string>): Record<string, unknown> {
  return {
    url: values.url,
    description: values.description,
    types: values.types.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== ''),
    visibility: values.visibility,
    include_objects: values.include_objects === '1',
    active: values.active === '1',
  };
}

function formErrors(outcome: Extract<ApiOutcome, { ok: false }>): { errors: FieldErrors; unplaced: string[] } {
  return apiErrorsToFields(outcome, {});
}

async function webhookPage(req: AdminRequest, id: number, state: { values?: Record<string, string>; errors?: FieldErrors; unplaced?: string[] } = {}, status = 200, headers: Record<string, string> = {}): Promise<AdminAnswer> {
  const failedOnly = req.query.status === 'failed';
  const [webhook, deliveries] = await Promise.all([
    callAdminApi(req, 'GET', WEBHOOK, { id }),
    callAdminApi(req, 'GET', `${WEBHOOK}/deliveries`, { id, ...(failedOnly ? { status: 'failed' } : {}) }),
  ]);
  if (!webhook.ok) return refusalPage(req, webhook);
  const view = adminView(req);
  return framed(
    req,
    req.t('rec_webhook'),
    [
      h(WebhookForm, { view, action: req.adminUrl(`/webhooks/${id}/`), values: state.values ?? webhookValues(webhook.body), errors: state.errors ?? {}, unplaced: state.unplaced ?? [], creating: false }),
      h(WebhookActions, { view, id, deliveries: deliveries.ok ? deliveries.body : [], failedOnly }),
    ],
    status,
    headers,
  );
}

async function create(req: AdminRequest): Promise<AdminAnswer> {
  const values = submitted(req);
  const created = await callAdminApi(req, 'POST', '/webhooks', webhookParams(values));
  const view = adminView(req);
  if (!created.ok) {
    if (created.status !== 400) return refusalPage(req, created);
    const { errors, unplaced } = formErrors(created);
    return framed(req, req.t('rec_new_webhook'), h(WebhookForm, { view, action: req.adminUrl('/webhooks/new'), values, errors, unplaced, creating: true }), 422, { 'X-Calendar-Error': created.code });
  }
  // The secret is in this 201 answer only (100 §7.1).
  return framed(
    req,
    req.t('rec_webhook'),
    [
      h(SecretOnce, { view, heading: req.t('rec_webhook_secret'), secret: created.body.secret }),
      h('p', null, h('a', { href: req.adminUrl(`/webhooks/${created.body.id}/`) }, created.body.url)),
    ],
    201,
    { 'Cache-Control': 'no-store' },
  );
}

async function act(req: AdminRequest): Promise<AdminAnswer> {
  const id = Number(req.params.id);
  const back = (message: string) => ({ redirect: req.adminUrl(`/webhooks/${id}/`, { message }), status: 303 as const });
  switch (req.form.get('action')) {
    case 'save': {
      const values = submitted(req);
      const saved = await callAdminApi(req, 'PATCH', WEBHOOK, { id, ...webhookParams(values) });
      if (saved.ok) return back('rec_saved');
      if (saved.status !== 400) return refusalPage(req, saved);
      return webhookPage(req, id, { values, ...formErrors(saved) }, 422, { 'X-Calendar-Error': saved.code });
    }
    case 'rotate_secret': {
      const rotated = await callAdminApi(req, 'POST', `${WEBHOOK}/rotate-secret`, { id });
      if (!rotated.ok) return refusalPage(req, rotated);
      return framed(req, req.t('rec_webhook'), [
        h(SecretOnce, { view: adminView(req), heading: req.t('rec_webhook_secret'), secret: rotated.body.secret }),
        h('p', null, h('a', { href: req.adminUrl(`/webhooks/${id}/`) }, rotated.body.url)),
      ], 201, { 'Cache-Control': 'no-store' });
    }
    case 'ping': {
      const pinged = await callAdminApi(req, 'POST', `${WEBHOOK}/ping`, { id });
      return pinged.ok ? back('rec_ping_sent') : refusalPage(req, pinged);
    }
    case 'delete': {
      const deleted = await callAdminApi(req, 'DELETE', WEBHOOK, { id });
      return deleted.ok ? { redirect: req.adminUrl('/webhooks/', { message: 'rec_webhook_deleted' }), status: 303 } : refusalPage(req, deleted);
    }
    case 'redeliver': {
      const again = await callAdminApi(req, 'POST', `${WEBHOOK}/deliveries/(?P<mid>\\d+)/redeliver`, { id, mid: req.form.get('message_id') });
      return again.ok ? back('rec_redelivery_queued') : refusalPage(req, again);
    }
    default:
      return adminErrorPage(req, 400, 'rest_invalid_param');
  }
}

/** `/admin/webhooks/…` (100 §10): 80 §4.1 as forms. */
export function webhookPages(_deps: AppDeps): AdminPage[] {
  return [
    {
      path: '/webhooks/',
      access: 'administrator',
      get: async (req) => {
        const listed = await callAdminApi(req, 'GET', '/webhooks', {});
        return listed.ok ? framed(req, req.t('rec_webhooks'), h(WebhooksTable, { view: adminView(req), webhooks: listed.body })) : refusalPage(req, listed);
      },
    },
    {
      path: '/webhooks/new',
      access: 'administrator',
      get: async (req) => framed(req, req.t('rec_new_webhook'), h(WebhookForm, { view: adminView(req), action: req.adminUrl('/webhooks/new'), values: { ...NEW_WEBHOOK_VALUES }, errors: {}, unplaced: [], creating: true })),
      post: create,
    },
    { path: '/webhooks/:id(^\\d+)/', access: 'administrator', get: (req) => webhookPage(req, Number(req.params.id)), post: act },
  ];
}
