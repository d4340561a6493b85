import { isOperator } from '../operator/operator.config.ts';
import { z } from 'zod';
import { createAccountsService, createAttemptLimiter, loginAttemptKey, type SsoDb } from '@cadcloud/sso';
import { defineEndpoint, documentEndpoint } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import { customerInfoResult, ERRORS, membershipStateSchema } from '@cadcloud/contracts';
import { serverMessage } from '@cadcloud/i18n';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import type { RouteModule } from '../index.ts';
import { cookieOptions, createSessionsService, TICKET_COOKIE } from './sessions.service.ts';
import { createUsersService } from './users.service.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { refreshFreeze } from '../../infra/db/freeze-state.ts';

export const usersRoutes: RouteModule = async (app, { deps }) => {
  const sessions = createSessionsService(deps);
  const users = createUsersService(deps);
  const membership = createMembershipService(deps);
  const accounts = createAccountsService(deps.db as unknown as SsoDb);
  // the login site's count: a password guessed here and on the login form is one lockout
  const limiter = createAttemptLimiter(deps.db as unknown as SsoDb, { max: 10, windowMs: 15 * 60_000 });
  const tag = 'users';

  defineEndpoint(app, {
    path: '/user/v5/sysuser/userInfo', tag, auth: 'user', formStyle: true,
    summary: "The signed-in user (spec section 3 user state): vipType and vipInfo {goodsCodes, serverEndTimeStamp} from the active entitlements, expiryWarning when the membership ends within 7 days (never for ML4), trialAvailable, the rights the server grants (groups, annotation, viewerTools, conversion, model3d, adFree, unzip), storage total = base + active entitlements' storage",
    request: z.object({}).passthrough(),
    response: z.object({ id: z.string(), name: z.string(), email: z.string(), favicon: z.string(), storage: z.object({ used: z.number(), total: z.number() }), freeze: z.number() }).merge(membershipStateSchema).passthrough(),
    handler: async (_d, { user }) => {
      // a membership that ended since the last write freezes here (spec section 4; the hourly freeze.sweep does it too)
      const { freeze } = await refreshFreeze(deps.db, user.id, Date.now());
      const { storageBytes, ...state } = await membership.rightsOf(user.id);
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        favicon: '',
        ...state,
        storage: { used: user.storage_used, total: storageBytes },
        freeze,
        company: null,
        // the user menu links to /operator only for these accounts (the endpoints check it again)
        operator: isOperator(deps.config.operatorEmails, user.email),
      };
    },
  });

  defineEndpoint(app, {
    path: '/user/v5/sysuser/logout', tag, auth: 'optional', formStyle: true, summary: 'End this session and clear the ticket cookie',
    request: z.object({}).passthrough(), response: z.object({ loggedOut: z.boolean() }),
    handler: async (_d, { req, reply }) => {
      if (req.ticket) await sessions.endSession(req.ticket);
      reply.clearCookie(TICKET_COOKIE, cookieOptions(deps.config));
      return { loggedOut: true };
    },
  });

  defineEndpoint(app, {
    path: '/user/v5/customer/getInfo', tag, auth: 'user', formStyle: true,
    summary: "The signed-in customer's profile (spec section 7 customer/getInfo): id, name, e-mail, avatar, the client type of the call, registration time",
    request: z.object({}).passthrough(), response: customerInfoResult,
    handler: async (_d, { req, user }) => ({ id: user.id, name: user.name, email: user.email, avatar: '', clientType: req.clientType, createdAt: Number(user.created_at) }),
  });

  defineEndpoint(app, {
    path: '/user/v5/sysuser/assistantToken', tag, auth: 'user',
    summary: "The user token handed to the operator's AI assistant (spec section 7): a session of its own (client type AI_Assistant), so the browser's ticket never leaves its cookie; refused while the assistant is off",
    request: z.object({}).passthrough(), response: z.object({ token: z.string() }),
    handler: async (_d, { user }) => {
      if (!deps.config.aiAssistantScriptUrl) throw appError('request.invalid');
      return { token: (await sessions.createSession(user.id, 'AI_Assistant')).ticket };
    },
  });

  // Answered `{code, data: {token, id}}` as the spec's API clients expect (not the rtnCode envelope).
  const clientTokenRequest = z.object({ data: z.object({ email: z.string().max(320), password: z.string().max(1000) }), clientInfo: z.object({ clientType: z.string().optional() }).passthrough().optional() });
  documentEndpoint(app, {
    method: 'post', path: '/user/v5/sysuser/clientToken', tag, auth: 'none', envelope: 'code-data', summary: 'Token for API clients (scripts, CAD add-ins): pass it as ?utoken=',
    request: clientTokenRequest.shape.data, response: z.object({ token: z.string(), id: z.string() }),
  });
  app.post('/user/v5/sysuser/clientToken', async (req) => {
    const body = clientTokenRequest.parse(req.body ?? {});
    const lang = requestLanguage(req);
    // req.ip is the socket's peer unless that is one of TRUSTED_PROXIES
    const key = loginAttemptKey(body.data.email, req.ip);
    const refused = { code: ERRORS['auth.badCredentials'].rtnCode, data: null, msg: serverMessage(ERRORS['auth.badCredentials'].key, lang) };
    if (!(await limiter.take(key))) return refused;
    const account = await accounts.verifyPassword(body.data.email, body.data.password);
    if (!account) return refused;
    await limiter.reset(key);
    const user = await users.findOrCreateBySso({ sub: account.id, email: account.email, name: account.name });
    const { ticket } = await sessions.createSession(user.id, body.clientInfo?.clientType ?? 'API');
    return { code: '0000000', data: { token: ticket, id: user.id }, msg: 'success' };
  });
};
