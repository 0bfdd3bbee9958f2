import type { SendMailOptions } from 'nodemailer';
import type { OutgoingMail } from '../domain/mail-transport';

/** Job ids are free strings (≤ 64 chars): keep what is safe in a Message-ID, a file name or a KV key. */
export function safeJobId(jobId: string): string {
  const cleaned = jobId.replace(/[^A-Za-z0-9_-]/g, '_');
  return cleaned === jobId ? jobId : `${cleaned}-${Buffer.from(jobId).toString('hex').slice(0, 16)}`;
}

/** One MIME message: multipart/alternative with the text and the HTML part; Message-ID derived from the job id. */
export function messageOptions(mail: OutgoingMail): SendMailOptions {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${safeJobId(mail.jobId)}@vellum-mailer>`,
    headers: { 'X-Vellum-Job-Id': mail.jobId, 'X-Vellum-Template': mail.template },
  };
}
