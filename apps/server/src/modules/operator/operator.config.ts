import { defineConfig, envOptionalString } from '../../infra/config/config.ts';

/** Who runs the site from the browser (issue 23): the operator page and /operator/v5/… are for these accounts only. */
export const operatorConfig = defineConfig({
  operatorEmails: { env: 'OPERATOR_EMAILS', schema: envOptionalString(), doc: 'comma-separated e-mails of signed-in accounts that may use the operator page (/operator: invoice requests, feedback); empty (default): nobody, the admin CLI only' },
});

/** Whether the signed-in account with this e-mail is an operator (case-insensitive; an empty setting names nobody). */
export function isOperator(operatorEmails: string | undefined, email: string | undefined | null): boolean {
  if (!email) return false;
  const wanted = email.trim().toLowerCase();
  return (operatorEmails ?? '').split(',').some((e) => e.trim().toLowerCase() === wanted && wanted !== '');
}
