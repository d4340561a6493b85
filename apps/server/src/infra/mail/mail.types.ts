export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
}

/** Sends through SMTP when SMTP_URL is set; otherwise stores in the outbox the operator can read. */
export interface Mailer {
  readonly name: 'outbox' | 'smtp';
  send(msg: MailMessage): Promise<void>;
}
