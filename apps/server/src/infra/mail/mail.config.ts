import { defineConfig, envOptionalString, envString } from '../config/config.ts';

export const mailConfig = defineConfig({
  smtpUrl: {
    env: 'SMTP_URL',
    schema: envOptionalString().refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://'),
    doc: 'smtp://user:pass@host:port; unset stores mail in the outbox',
  },
  mailFrom: { env: 'MAIL_FROM', schema: envString('CADCloud <no-reply@cadcloud.local>'), doc: 'sender address' },
});
