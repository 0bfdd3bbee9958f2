import nodemailer from 'nodemailer';
import type { MailTransport, OutgoingMail, SendResult } from '../domain/mail-transport';
import { messageOptions } from './message-options';

export interface SmtpTransportOptions {
  host: string;
  port?: number;
  secure: boolean;
  ignoreTLS: boolean;
  user?: string;
  password?: string;
  pool: boolean;
  maxConnections: number;
  /** Connection, greeting and socket-inactivity timeout, ms. */
  timeoutMs: number;
}

/** SMTP through nodemailer (pooled by default). Resolves once the server answered 250 to the message. */
export function createSmtpTransport(o: SmtpTransportOptions): MailTransport {
  const common = {
    host: o.host,
    port: o.port,
    secure: o.secure,
    ignoreTLS: o.ignoreTLS,
    auth: o.user ? { user: o.user, pass: o.password ?? '' } : undefined,
    connectionTimeout: o.timeoutMs,
    greetingTimeout: o.timeoutMs,
    socketTimeout: o.timeoutMs,
    dnsTimeout: o.timeoutMs,
  };
  const transporter = o.pool
    ? nodemailer.createTransport({ ...common, pool: true, maxConnections: o.maxConnections, maxMessages: 1000 })
    : nodemailer.createTransport(common);
  return {
    kind: 'smtp',
    async send(mail: OutgoingMail, signal: AbortSignal): Promise<SendResult> {
      const info = await transporter.sendMail({ ...messageOptions(mail), signal });
      if (info.rejected?.length) {
        // partial rejection cannot happen with one recipient, but never report a rejected mail as sent
        throw Object.assign(new Error(`recipient rejected: ${info.response}`), { code: 'EENVELOPE' });
      }
      return { response: info.response, messageId: info.messageId };
    },
    async close() {
      transporter.close();
    },
  };
}
