import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '@vellum/logger';
import type { MailTransport, OutgoingMail, SendResult } from '../domain/mail-transport';
import { messageOptions, safeJobId } from './message-options';

/**
 * For a machine without a mail server: each message is written as `<job id>.eml` (RFC 5322, opens in any mail
 * client) and its link is logged, so a newcomer can reset a password from the log. Written atomically (temp file
 * + rename), so a half-written file never appears; a redelivered job overwrites its own file.
 */
export function createFileTransport(dir: string, logger: Logger): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const root = path.resolve(dir);
  return {
    kind: 'file',
    async send(mail: OutgoingMail, signal: AbortSignal): Promise<SendResult> {
      signal.throwIfAborted();
      const info = await composer.sendMail(messageOptions(mail));
      await mkdir(root, { recursive: true });
      const file = path.join(root, `${safeJobId(mail.jobId)}.eml`);
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, info.message as Buffer);
      await rename(tmp, file);
      logger.info({ job: mail.jobId, template: mail.template, to: mail.to, file, link: mail.url }, `mail written to ${file} — link: ${mail.url}`);
      return { response: `written to ${file}`, messageId: info.messageId };
    },
    async close() {},
  };
}
