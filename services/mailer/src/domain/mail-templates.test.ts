import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { escapeHtml, MailTemplates, TEMPLATE_NAMES } from './mail-templates';

const values = { project: 'P & <Q>', url: 'https://x.test/r?token=a&b="c"', name: "O'Brien <b>", to: 'a@b.test' };

describe('mail templates', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
  });

  it.each(TEMPLATE_NAMES)('%s: HTML escaped, text verbatim, subject on one line', (name) => {
    const r = new MailTemplates().render(name, values);
    expect(r.html).toContain('href="https://x.test/r?token=a&amp;b=&quot;c&quot;"');
    expect(r.html).toContain('O&#39;Brien &lt;b&gt;');
    expect(r.html).toContain('P &amp; &lt;Q&gt;');
    expect(r.html).not.toMatch(/\{\{|<b>|<Q>/);
    expect(r.text).toContain('https://x.test/r?token=a&b="c"');
    expect(r.text).not.toContain('{{');
    expect(r.subject).toContain('P & <Q>');
    const injected = new MailTemplates().render(name, { ...values, project: 'X\r\nBcc: evil@x.test' });
    expect(injected.subject).not.toMatch(/[\r\n]/);
  });

  it('takes override files from the override directory, part by part', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mail-tpl-'));
    writeFileSync(path.join(dir, 'password-reset.subject.txt'), 'Custom {{project}}\n');
    const t = new MailTemplates(dir);
    const r = t.render('password-reset', values);
    expect(r.subject).toBe('Custom P & <Q>');
    expect(r.html).toContain('Choose a new password'); // built-in HTML kept
    expect(t.files('password-reset').subject).toBe(path.join(dir, 'password-reset.subject.txt'));
  });

  it('refuses an override with an unknown placeholder, or a missing directory, at load time', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mail-tpl-'));
    writeFileSync(path.join(dir, 'user-invitation.html'), '<p>{{password}}</p>');
    expect(() => new MailTemplates(dir)).toThrow(/unknown placeholder \{\{password\}\}/);
    expect(() => new MailTemplates(path.join(dir, 'nope'))).toThrow(/does not exist/);
  });
});
