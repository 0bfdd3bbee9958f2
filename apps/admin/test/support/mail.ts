import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';

/**
 * The link of the newest mail to `to` that the mailer's file transport wrote under DATA_DIR/mail and whose link
 * contains `linkPart` (polls until it appears). A link is returned once.
 */
export async function mailedLink(dataDir: string, to: string, linkPart: string, timeoutMs = 20_000): Promise<string> {
  const dir = path.join(dataDir, 'mail');
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (existsSync(dir)) {
      for (const f of readdirSync(dir).filter((n) => n.endsWith('.eml'))) {
        const mail = await simpleParser(readFileSync(path.join(dir, f)));
        const recipients = JSON.stringify(mail.to ?? '');
        const link = String(mail.text ?? '').match(new RegExp(`https?://\\S*${linkPart.replace(/[?]/g, '\\?')}\\S*`))?.[0];
        if (recipients.includes(to) && link && !consumed.has(link)) {
          consumed.add(link);
          return link;
        }
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} with a link containing ${linkPart} within ${timeoutMs} ms`);
}
const consumed = new Set<string>();
