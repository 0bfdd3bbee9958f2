import type { RenderedMail } from './mail-templates';

export interface OutgoingMail extends RenderedMail {
  /** The job id: the message's idempotency key (and Message-ID). */
  jobId: string;
  template: string;
  from: string;
  to: string;
  /** The link in the mail (logged by the file transport). */
  url: string;
}

export interface SendResult {
  /** What the server answered ("250 OK: queued as …") or the file written. */
  response: string;
  messageId?: string;
}

/** Where mails go. `send` resolves only once the message is accepted; rejects with nodemailer-style errors. */
export interface MailTransport {
  readonly kind: 'smtp' | 'file' | string;
  send(mail: OutgoingMail, signal: AbortSignal): Promise<SendResult>;
  close(): Promise<void>;
}
