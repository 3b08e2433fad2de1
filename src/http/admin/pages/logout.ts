import { LogoutPage } from '../../../web/admin/signin.tsx';
import type { AdminAnswer, AdminRequest } from '../admin-request.ts';
import { adminServices } from '../admin-services.ts';
import { adminView } from '../admin-view.ts';
import type { AdminPageModule } from '../router.ts';
import { clearedCookie, cookieSettings, SESSION_COOKIE } from '../session-cookie.ts';

/** 100 §5.3: the session's row goes, the cookie is cleared, back to the sign-in page. */
async function signOut(req: AdminRequest): Promise<AdminAnswer> {
  const services = adminServices(req.deps);
  await services.sessions.revoke(req.sessionId);
  return { redirect: req.adminUrl('/login', { signed_out: 1 }), cookies: [clearedCookie(SESSION_COOKIE, cookieSettings(req.raw, req.deps.config))] };
}

export const logoutPages: AdminPageModule = () => [
  { path: '/logout', access: 'signed-in', get: async (req) => ({ body: LogoutPage({ view: adminView(req) }) }), post: signOut },
];
